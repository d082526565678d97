import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { siteDir } from './paths';

/** A Markdown page of the site and its frontmatter. */
export interface Page {
  /** Its path under site/ without `.md` (`guides/express`). */
  id: string;
  path: string;
  frontmatter: Record<string, string>;
}

/** Folders of site/ that hold no pages: the generator's own, the build and what it copies as is. */
const NOT_PAGES = new Set(['.vitepress', 'node_modules', 'dist', 'public']);

/**
 * The API reference TypeDoc writes into site/ at each build (git-ignored), its fragments from the
 * sources' doc comments: not written pages. When the site was built before these tests ran, they
 * compiled those fragments as programs and failed a fresh-clone run.
 */
const GENERATED = join(siteDir, 'reference', 'api');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return NOT_PAGES.has(entry.name) || path === GENERATED ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The `key: value` lines between the page's opening `---` lines (the site's frontmatter is flat). */
export function frontmatter(text: string): Record<string, string> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!match) return {};
  return Object.fromEntries(
    match[1]!
      .split('\n')
      .map((line) => /^(\w+):\s*(.*)$/.exec(line))
      .filter((found) => found !== null)
      .map((found) => [found[1]!, found[2]!.replace(/^(['"])(.*)\1$/, '$2')]),
  );
}

/** Every page of the site, sorted by id. */
export function sitePages(): Page[] {
  if (!existsSync(siteDir)) return [];
  return markdownFiles(siteDir)
    .map((path) => ({ id: relative(siteDir, path).replace(/\.md$/, ''), path, frontmatter: frontmatter(readFileSync(path, 'utf8')) }))
    .sort((a, b) => a.id.localeCompare(b.id));
}
