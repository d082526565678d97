// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

// The minimal template's config, with the SSR adapter a shop needs for its on-demand endpoints.
export default defineConfig({
  adapter: node({ mode: 'standalone' }),
  // The tests build once per run, from scratch, and read nothing Astro would report home.
  telemetry: false,
});
