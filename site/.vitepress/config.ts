import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type DefaultTheme } from 'vitepress';
import { writeLlmsFiles } from './llms';
import { sidebar } from './sidebar';

const siteDir = fileURLToPath(new URL('..', import.meta.url));

/** The API reference's own sidebar, which TypeDoc writes beside its pages (typedoc.config.mjs) before the build. */
const apiSidebarFile = fileURLToPath(new URL('../reference/api/typedoc-sidebar.json', import.meta.url));
const apiSidebar: DefaultTheme.SidebarItem[] = existsSync(apiSidebarFile) ? (JSON.parse(readFileSync(apiSidebarFile, 'utf8')) as DefaultTheme.SidebarItem[]) : [];

export default defineConfig({
  title: 'paymount',
  description: 'Payment routes for the merchant backend you already have: hosted checkout, wallet payments and verified webhooks, with an embedded sandbox.',
  lang: 'en-US',
  // `npm run site:build` writes site/dist, served as plain files: links keep their `.html`.
  outDir: 'dist',
  cleanUrls: false,
  srcExclude: ['dist/**', 'test/**', 'node_modules/**', 'README.md'],
  lastUpdated: false,
  buildEnd: writeLlmsFiles,
  themeConfig: {
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Troubleshooting', link: '/troubleshooting/' },
      { text: 'Events', link: '/reference/events' },
      { text: 'API', link: '/reference/api/' },
    ],
    // The API reference's pages get its sidebar alone: hundreds of entries would weigh on every other page.
    sidebar: { '/reference/api/': [{ text: 'API reference', items: apiSidebar }], '/': sidebar(siteDir, [{ text: 'API reference', link: '/reference/api/' }]) },
    // minisearch over the built pages, shipped with the site: works offline, no service to call.
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
});
