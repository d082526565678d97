// The Fastify app the README's "An app-wide auth hook" block adds its hook to.
import Fastify from 'fastify';

export const app = Fastify();
