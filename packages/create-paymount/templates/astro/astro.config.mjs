// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import { loadEnv } from 'vite';

// The host the shop answers as (PUBLIC_URL, else where it listens; .env, then the environment's own). Astro
// builds each request's URL on it: without it, on `localhost`, so its origin check would refuse the shop's own
// forms and paymount's routes would name the wrong webhook URL.
const env = loadEnv('production', process.cwd(), '');
const publicUrl = new URL(env['PUBLIC_URL'] || `http://${env['HOST'] || '127.0.0.1'}`);

// The minimal template's config, with the adapter `npx astro add node` adds: every page on demand.
export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  security: { allowedDomains: [{ protocol: publicUrl.protocol.slice(0, -1), hostname: publicUrl.hostname }] },
  // Nothing inlined into a page, so its strict Content Security Policy (src/middleware.ts) holds.
  build: { inlineStylesheets: 'never' },
  vite: { build: { assetsInlineLimit: 0 } },
});
