import { describe, expect, it } from 'vitest';
import { checkComponents } from '../src/framework-projects';
import { sitePages } from '../src/pages';
import { denoCheckPage } from '../src/deno-check';
import { compilePage, pageBlocks, templateOf } from '../src/project';

const pages = sitePages().filter((page) => pageBlocks(page).length > 0);

it('finds the pages with TypeScript blocks', () => {
  expect(pages.map((page) => page.id)).toContain('guides/express');
});

describe.each(pages.map((page) => [`site/${page.id}.md (${page.frontmatter.template ?? 'tsc-init'})`, page] as const))(
  "%s: every block compiles under its template's tsconfig, against the built packages",
  (_name, page) => {
    const compiled = compilePage(page);

    it("with no error in the options or in paymount's declarations", () => {
      expect(compiled.other).toEqual([]);
    });

    const { framework } = templateOf(page);
    if (framework && framework.components.blocks(page.path).length > 0) {
      it("and its components (```svelte, ```vue) with the framework's own checker", () => {
        expect(checkComponents(framework, page.path, compiled.dir)).toEqual([]);
      }, 300_000);
    }

    it.each(compiled.blocks.map((block) => [`line ${block.line} (${block.file})`, block] as const))('%s', (_block, block) => {
      expect(compiled.byBlock.get(block)).toEqual([]);
    });

    if (page.frontmatter.template === 'deno-init') {
      it("and with deno check, against Deno's own types", async () => {
        const checked = await denoCheckPage(page);
        expect(checked.output).toBe('');
        expect(checked.code).toBe(0);
      }, 180_000);
    }
  },
);
