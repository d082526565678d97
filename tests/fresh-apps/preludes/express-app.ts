// Runtime prelude "express-app": the quick start's app and payment router, from the app's own module.
import { app, payments } from './express-app.js';
