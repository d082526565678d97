// Runtime prelude "koa-app": the quick start's app and payment middleware, from the app's own module.
import { app, payments } from './koa-app.js';
