import { readdirSync, readFileSync } from 'node:fs';
import { guideSectionUrl } from '@paymount/core/internal';
import { describe, expect, it } from 'vitest';
import { anchorsOf, builtPage } from './built-site';

/*
 * Messages link to a guide's section by its title (the sandbox's delivery diagnoses: "exempt the payment routes
 * ... (https://paymount.dev/guides/express.html#an-app-wide-auth-middleware)"), through core's `guideSectionUrl`.
 * Its slug rule must be the one VitePress gave the built page, for every section of every guide.
 */
const guidesDir = new URL('../guides/', import.meta.url);
const guides = readdirSync(guidesDir)
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.slice(0, -'.md'.length));

describe.each(guides)('site/guides/%s.md', (guide) => {
  const headings = readFileSync(new URL(`${guide}.md`, guidesDir), 'utf8')
    .split('\n')
    .flatMap((line) => (/^#{2,3} /.test(line) ? [line.replace(/^#+ /, '')] : []));
  const anchors = anchorsOf(builtPage(`guides/${guide}.html`));

  it.each(headings)('%s: the link core makes to it names an anchor of the built page', (heading) => {
    const anchor = new URL(guideSectionUrl(guide, heading)).hash.slice(1);
    expect(anchors).toContain(anchor);
  });
});
