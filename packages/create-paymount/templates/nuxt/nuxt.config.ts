// https://nuxt.com/docs/api/configuration/nuxt-config
export default defineNuxtConfig({
  compatibilityDate: '2025-07-15',
  devtools: { enabled: true },
  // Component styles as files, never inlined in the page: its Content Security Policy (server/plugins/shop.ts)
  // allows no inline style.
  features: { inlineStyles: false },
  // `nuxt typecheck` checks the shop's tests too, under the project nuxt.config.ts is checked in.
  typescript: { nodeTsConfig: { include: ['../test/**/*.ts'] } },
});
