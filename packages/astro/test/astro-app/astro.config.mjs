// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

// The minimal template's config, with the SSR adapter a shop needs for its on-demand endpoints.
export default defineConfig({
  adapter: node({ mode: 'standalone' }),
  // The host the server answers as (a shop's own domain): without it Astro builds every request's URL on
  // `localhost`, so `context.url` (the webhook URL the routes name, a same-origin form's Origin) would be wrong.
  security: { allowedDomains: [{ protocol: 'http', hostname: '127.0.0.1' }] },
  // No processed script inlined into a page, so its strict Content Security Policy holds (the Astro guide, "The wallet button").
  vite: { build: { assetsInlineLimit: 0 } },
  // The tests build once per run, from scratch, and read nothing Astro would report home.
  telemetry: false,
});
