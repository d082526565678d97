import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type DefaultTheme } from 'vitepress';
import { writeLlmsFiles } from './llms';
import { sidebar } from './sidebar';

const siteDir = fileURLToPath(new URL('..', import.meta.url));

/** The API reference's own sidebar, which TypeDoc writes beside its pages (typedoc.config.mjs) before the build: one entry per package. */
const apiSidebarFile = fileURLToPath(new URL('../reference/api/typedoc-sidebar.json', import.meta.url));
const apiSidebar: DefaultTheme.SidebarItem[] = existsSync(apiSidebarFile) ? (JSON.parse(readFileSync(apiSidebarFile, 'utf8')) as DefaultTheme.SidebarItem[]) : [];

/** Every package's reference page: the API reference's own sidebar group, and the last group of each package's. */
const apiPackages: DefaultTheme.SidebarItem = { text: 'API reference', items: apiSidebar.map(({ text, link }) => ({ text, link })) };

/**
 * The API sidebars, one per package (its own pages, then the list of packages), keyed by its folder: a
 * page renders only its package's entries, not all 475 pages' (which made 150 MB of the site's 158).
 */
function apiSidebars(): DefaultTheme.SidebarMulti {
  const sidebars: DefaultTheme.SidebarMulti = { '/reference/api/': [apiPackages] };
  for (const { text, link, items } of apiSidebar) {
    if (link !== undefined) sidebars[link] = [{ text, link, items }, apiPackages];
  }
  return sidebars;
}

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
  // The site's data (every sidebar) and the page map in one shared script, not inlined into each of ~500 pages.
  metaChunk: true,
  themeConfig: {
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Troubleshooting', link: '/troubleshooting/' },
      { text: 'Events', link: '/reference/events' },
      { text: 'API', link: '/reference/api/' },
    ],
    // An API page gets its package's sidebar alone: hundreds of entries would weigh on every other page.
    sidebar: { ...apiSidebars(), '/': sidebar(siteDir, [{ text: 'API reference', link: '/reference/api/' }]) },
    // minisearch over the built pages, shipped with the site: works offline, no service to call.
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
});
