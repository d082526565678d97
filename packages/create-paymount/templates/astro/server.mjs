// Astro's standalone server (@astrojs/node), started here rather than by dist/server/entry.mjs itself so the
// shop starts with it: Astro runs none of the app's code before a request, so the home page is asked for
// as soon as the server listens, and src/middleware.ts starts the shop (the sandbox in development, the
// database) and prints where it is, or stops the server on a bad setting, before any shopper comes.
import { once } from 'node:events';

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const { startServer } = await import('./dist/server/entry.mjs');
const { server } = startServer();
await once(server.server, 'listening');
// HOST and PORT as production-env.js set them for the server.
const host = process.env.HOST.includes(':') ? `[${process.env.HOST}]` : process.env.HOST;
await (await fetch(`http://${host}:${process.env.PORT}/`)).arrayBuffer();
