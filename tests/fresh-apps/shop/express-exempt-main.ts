// The same app in the README's order ("An app-wide auth middleware", written as auth-middleware.ts):
// the payment router, then the auth middleware.
import { listen } from './express-app.js';
import './auth-middleware.js';

listen();
