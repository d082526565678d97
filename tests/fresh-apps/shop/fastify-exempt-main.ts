// The same app with the README's hook, which skips the payment routes ("An app-wide auth hook").
import { app } from './fastify-app.js';
import { serveWithPayments } from './fastify-serve.js';
import './auth-hook.js';

await serveWithPayments(app);
