// The Koa app: @koa/bodyparser used globally BEFORE the payment middleware, kept there as the
// guide's "The webhook's raw body" block (written as parser-first.ts) shows.
import { listen } from './koa-app.js';
import './parser-first.js';

listen();
