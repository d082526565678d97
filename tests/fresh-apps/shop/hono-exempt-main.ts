// The same app with the README's exemption ("An app-wide auth middleware", written as
// auth-middleware.ts): the bearer auth on every path but the webhook.
import { listen } from './hono-app.js';
import './auth-middleware.js';

listen();
