import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOCS_BASE_URL, docsUrl } from '@paymount/core/internal';
import { describe, expect, it } from 'vitest';
import { anchorsOf, builtFiles, builtPage } from './built-site';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Folders no reader sees: dependencies, build output, generated test projects. */
const SKIPPED = new Set(['node_modules', '.git', 'dist', '.turbo', '.generated', 'coverage', 'test-results', '.vitepress', 'api']);

function filesUnder(dir: string, wanted: (name: string, path: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : filesUnder(path, wanted);
    return entry.isFile() && wanted(entry.name, path) ? [path] : [];
  });
}

/** Every README.md and SECURITY.md of the repository, and every source file of a package. */
function writtenFiles(): string[] {
  const documents = filesUnder(REPO, (name) => name === 'README.md' || name === 'SECURITY.md');
  const sources = filesUnder(join(REPO, 'packages'), (name, path) => /\.(ts|tsx|mts|js|mjs|vue|svelte|astro)$/.test(name) && /[\\/]src[\\/]/.test(relative(REPO, path)));
  return [...documents, ...sources];
}

/** The site's URLs a file writes out, as written, and those its literal `docsUrl('page', 'anchor')` calls make. */
function urlsIn(text: string): string[] {
  const literal = [...text.matchAll(/https:\/\/paymount\.dev(?:\/[^\s)'"`<>\]]*)?/g)].map(([url]) => url.replace(/[.,;:]+$/, ''));
  const calls = [...text.matchAll(/docsUrl\(\s*'(\w+)',\s*'([^']+)'\s*\)/g)].map(([, page = '', anchor = '']) =>
    docsUrl(page as Parameters<typeof docsUrl>[0], anchor as Parameters<typeof docsUrl>[1]),
  );
  return [...literal, ...calls];
}

const pages = new Set(builtFiles());

/** What is missing in the built site for `url`: its page, or the anchor on it; undefined when nothing. */
function missingFor(url: string): string | undefined {
  const { pathname, hash } = new URL(url);
  // As a static host serves site/dist: a directory by its index.html, no `.html` added to a bare name.
  const page = (pathname.endsWith('/') ? `${pathname}index.html` : pathname).slice(1);
  if (!pages.has(page)) return `no page ${page} in the built site`;
  if (hash === '' || hash === '#') return undefined;
  const anchor = decodeURIComponent(hash.slice(1));
  return anchorsOf(builtPage(page)).has(anchor) ? undefined : `no anchor #${anchor} on ${page}`;
}

describe(`every ${DOCS_BASE_URL} URL written in a README, SECURITY.md or a package's source is a page and anchor of the built site`, () => {
  it('finds the written URLs, the core README among them', () => {
    const found = writtenFiles().filter((file) => urlsIn(readFileSync(file, 'utf8')).length > 0);
    expect(found.map((file) => relative(REPO, file))).toContain(join('packages', 'core', 'README.md'));
  });

  it('tells a missing anchor and a missing page', () => {
    expect(missingFor(`${DOCS_BASE_URL}/troubleshooting/error-codes.html#ORDER_NOT_FOUND`)).toBeUndefined();
    expect(missingFor(`${DOCS_BASE_URL}/troubleshooting/error-codes.html#NO_SUCH_CODE`)).toBe('no anchor #NO_SUCH_CODE on troubleshooting/error-codes.html');
    expect(missingFor(`${DOCS_BASE_URL}/guides/express`)).toBe('no page guides/express in the built site');
    expect(urlsIn("see https://paymount.dev/security.html#under-load. And docsUrl('errorCodes', 'TIMEOUT')")).toEqual([
      `${DOCS_BASE_URL}/security.html#under-load`,
      `${DOCS_BASE_URL}/troubleshooting/error-codes.html#TIMEOUT`,
    ]);
  });

  it('each resolves (a failure names the file, the URL and what is missing)', () => {
    const broken = writtenFiles().flatMap((file) =>
      urlsIn(readFileSync(file, 'utf8')).flatMap((url) => {
        const missing = missingFor(url);
        return missing === undefined ? [] : [`${relative(REPO, file)}: ${url}: ${missing}`];
      }),
    );
    expect(broken).toEqual([]);
  });
});
