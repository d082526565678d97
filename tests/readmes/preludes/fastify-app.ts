// Prelude "fastify-app": the Fastify README's quick-start app.
import type { FastifyInstance } from 'fastify';
declare const app: FastifyInstance;
