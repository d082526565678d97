import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DefaultTheme } from 'vitepress';

/** A page's place in the sidebar, read from its frontmatter (`title:`, `order:`). */
interface PageEntry {
  title: string;
  order: number;
  link: string;
}

/** The page's frontmatter as flat `key: value` lines: all the sidebar reads of it. */
function frontmatter(source: string): Record<string, string> {
  const block = /^---\r?\n([\s\S]*?)\r?\n---/.exec(source)?.[1] ?? '';
  const fields: Record<string, string> = {};
  for (const line of block.split(/\r?\n/)) {
    const match = /^([A-Za-z]+):\s*(.*)$/.exec(line);
    if (match?.[1] !== undefined) fields[match[1]] = (match[2] ?? '').replace(/^(['"])(.*)\1$/, '$2');
  }
  return fields;
}

/** The first `# ` heading, for a page without a `title:`. */
const firstHeading = (source: string) => /^# (.+)$/m.exec(source)?.[1]?.trim();

/**
 * The Markdown pages of one folder of the site (`''` for the top level), ordered by their `order:`
 * (pages without one last, then by title). A page joins the sidebar by being written: no config edit.
 */
export function pagesIn(siteDir: string, folder: string, leaveOut: readonly string[] = []): PageEntry[] {
  const dir = join(siteDir, folder);
  const entries = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md') && !leaveOut.includes(entry.name))
    .map((entry) => {
      const source = readFileSync(join(dir, entry.name), 'utf8');
      const fields = frontmatter(source);
      const name = entry.name.replace(/\.md$/, '');
      const path = folder === '' ? name : `${folder}/${name}`;
      return {
        title: fields['title'] ?? firstHeading(source) ?? name,
        order: fields['order'] === undefined ? Number.POSITIVE_INFINITY : Number(fields['order']),
        link: `/${path.replace(/(^|\/)index$/, '$1')}`,
      };
    });
  return entries.sort((a, b) => a.order - b.order || a.title.localeCompare(b.title));
}

/** The folders the sidebar shows, in this order, each under its heading. */
export const SECTIONS = [
  { folder: 'guides', text: 'Guides' },
  { folder: 'concepts', text: 'Concepts' },
  { folder: 'troubleshooting', text: 'Troubleshooting' },
  { folder: 'reference', text: 'Reference' },
] as const;

/** Folders that exist: the guides and concepts come from another branch and may not be there yet. */
function existing(siteDir: string, folder: string): boolean {
  try {
    return readdirSync(join(siteDir, folder)).length > 0;
  } catch {
    return false;
  }
}

/** The whole sidebar: the top-level pages (the home page left out), then each section's pages, then `extra` (the API reference). */
export function sidebar(siteDir: string, extra: DefaultTheme.SidebarItem[] = []): DefaultTheme.SidebarItem[] {
  const item = ({ title, link }: PageEntry): DefaultTheme.SidebarItem => ({ text: title, link });
  return [
    { text: 'Start', items: pagesIn(siteDir, '', ['index.md']).map(item) },
    ...SECTIONS.filter(({ folder }) => existing(siteDir, folder)).map(({ folder, text }) => ({ text, collapsed: false, items: pagesIn(siteDir, folder).map(item) })),
    ...extra,
  ];
}
