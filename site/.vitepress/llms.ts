import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SiteConfig } from 'vitepress';

/** The API reference's pages: linked from llms.txt by their index, left out of llms-full.txt (megabytes of signatures). */
const API_PREFIX = 'reference/api/';

interface Page {
  /** The source's path under the site, `troubleshooting/error-codes.md`: also its twin's path in dist. */
  path: string;
  title: string;
  /** The page's Markdown without its frontmatter. */
  body: string;
}

function readPage(srcDir: string, path: string): Page {
  const source = readFileSync(join(srcDir, path), 'utf8');
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(source);
  const body = frontmatter ? source.slice(frontmatter[0].length) : source;
  const title = /^title:\s*(.+)$/m.exec(frontmatter?.[1] ?? '')?.[1] ?? /^# (.+)$/m.exec(body)?.[1] ?? path;
  return { path, title: title.trim().replace(/^(['"])(.*)\1$/, '$2'), body };
}

/** `- [Title](/path.md)` lines of one group of pages. */
const listOf = (pages: readonly Page[]) => pages.map((page) => `- [${page.title}](/${page.path})`).join('\n');

/** The heading of a page's group in llms.txt: its folder. */
function groupOf(path: string): string {
  if (path.startsWith(API_PREFIX)) return 'API reference';
  const folder = path.includes('/') ? path.slice(0, path.indexOf('/')) : '';
  return folder === '' ? 'Start' : folder[0]?.toUpperCase() + folder.slice(1);
}

/**
 * After the build: a Markdown twin of every page beside its `.html` (`error-codes.html` and
 * `error-codes.md`), `llms.txt` (llmstxt.org: the site's map, each page by its twin) and
 * `llms-full.txt` (every page but the API reference, in one file), at the site's root.
 */
export function writeLlmsFiles(siteConfig: SiteConfig): void {
  const { srcDir, outDir, site } = siteConfig;
  const pages = siteConfig.pages.map((path) => readPage(srcDir, path));
  for (const page of pages) {
    const twin = join(outDir, page.path);
    mkdirSync(dirname(twin), { recursive: true });
    writeFileSync(twin, page.body);
  }
  const groups = new Map<string, Page[]>();
  for (const page of pages) {
    if (page.path.startsWith(API_PREFIX) && !/^reference\/api\/(@paymount\/[^/]+\/)?index\.md$/.test(page.path)) continue;
    const group = groupOf(page.path);
    groups.set(group, [...(groups.get(group) ?? []), page]);
  }
  // llmstxt.org: the "Optional" section, last, is what a reader with little room may skip.
  const { 'API reference': api = [], ...rest } = Object.fromEntries(groups);
  const sections = [...Object.entries(rest), ['Optional', api] as const].map(([group, members]) => `## ${group}\n\n${listOf(members)}`);
  writeFileSync(join(outDir, 'llms.txt'), `# ${site.title}\n\n> ${site.description}\n\n${sections.join('\n\n')}\n`);
  const full = pages.filter((page) => !page.path.startsWith(API_PREFIX)).map((page) => `<!-- /${page.path} -->\n\n${page.body.trim()}\n`);
  writeFileSync(join(outDir, 'llms-full.txt'), `# ${site.title}\n\n> ${site.description}\n\n${full.join('\n')}`);
}
