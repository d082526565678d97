// Runtime prelude "hono-app": the quick start's app and payment routes, from the app's own module.
import { app, payments } from './hono-app.js';
