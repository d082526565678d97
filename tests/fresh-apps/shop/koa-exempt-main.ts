// The same app in the README's order ("An app-wide auth middleware", written as auth-middleware.ts):
// the payment middleware, then the auth middleware.
import { listen } from './koa-app.js';
import './auth-middleware.js';

listen();
