import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeBlocks } from '../../../tools/readme-blocks';
import { sitePages } from '../src/pages';
import { repoRoot } from '../src/paths';
import { pageBlocks, templateOf } from '../src/project';

const pages = sitePages();
/** The pages this workspace's part of the site owns: the guides, the concepts and three top-level pages. */
const owned = pages.filter((page) => /^(guides|concepts)\//.test(page.id) || ['go-live', 'security', 'architecture'].includes(page.id));
const guides = pages.filter((page) => page.id.startsWith('guides/'));

/** The frameworks and runtimes with a guide, by page (issue 42's "Done means" names the first nine). */
const REQUIRED_GUIDES = ['express', 'koa', 'fastify', 'nestjs', 'hono', 'next', 'cloudflare-workers', 'bun', 'deno', 'sveltekit', 'nuxt'];

it('has a guide per framework and runtime', () => {
  expect(REQUIRED_GUIDES.filter((name) => !guides.some((page) => page.id === `guides/${name}`))).toEqual([]);
});

describe.each(owned.map((page) => [page.id, page] as const))('site/%s.md', (_id, page) => {
  it('has the title and order the sidebar is built from', () => {
    expect(page.frontmatter.title ?? '').not.toBe('');
    expect(Number.isInteger(Number(page.frontmatter.order))).toBe(true);
  });
});

describe.each(guides.map((page) => [page.id, page] as const))('site/%s.md', (_id, page) => {
  it('names a template tests/site knows', () => {
    expect(page.frontmatter.template).toBeDefined();
    expect(() => templateOf(page)).not.toThrow();
  });

  // The repository's tests run each README's quick start as written (tests/readmes, or the package's own tests): a
  // guide whose quick start is its README's is run by them.
  const readme = page.frontmatter.readme;
  if (readme === undefined) return;
  it(`its quick start is packages/${readme}/README.md's, which the repository's tests run as written`, () => {
    const fromReadme = readmeBlocks(readme, join(repoRoot, 'packages', readme, 'README.md')).filter((block) => block.section === 'Quick start');
    const fromGuide = pageBlocks(page).filter((block) => block.section === 'Quick start');
    expect(fromGuide.length).toBeGreaterThan(0);
    expect(fromGuide.map((block) => block.code)).toEqual(fromReadme.map((block) => block.code));
  });
});
