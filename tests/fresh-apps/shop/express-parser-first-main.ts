// The Express 5 app: express.json() used globally BEFORE the payment router, kept there as the
// guide's "The webhook's raw body" block (written as parser-first.ts) shows, with the bytes it read kept.
import { listen } from './express-app.js';
import './parser-first.js';

listen();
