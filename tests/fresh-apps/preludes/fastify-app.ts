// Runtime prelude "fastify-app": the app the block adds to (the README tests' prelude declares it).
import { app } from './fastify-app.js';
