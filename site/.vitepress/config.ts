import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';
import { sidebar } from './sidebar';

const siteDir = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  title: 'paymount',
  description: 'Payment routes for the merchant backend you already have: hosted checkout, wallet payments and verified webhooks, with an embedded sandbox.',
  lang: 'en-US',
  // `npm run site:build` writes site/dist, served as plain files: links keep their `.html`.
  outDir: 'dist',
  cleanUrls: false,
  srcExclude: ['dist/**', 'test/**', 'node_modules/**', 'README.md'],
  lastUpdated: false,
  themeConfig: {
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Troubleshooting', link: '/troubleshooting/' },
      { text: 'Events', link: '/reference/events' },
    ],
    sidebar: sidebar(siteDir),
    // minisearch over the built pages, shipped with the site: works offline, no service to call.
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
});
