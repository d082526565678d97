import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliFrameworks, runCreatePaymount, shopDir } from '../src/create-paymount';
import { sitePages, type Page } from '../src/pages';
import { repoRoot } from '../src/paths';

/*
 * Issue 43: the getting-started page and every guide of a framework with a template start from `npm create paymount`,
 * and every `--framework` a reader copies is one the CLI takes. The built CLI is asked, as a reader runs it: its
 * list of templates, its usage, and each name written, scaffolded without an install.
 */
const dirs: string[] = [];
function newShopDir(): string {
  const dir = shopDir();
  dirs.push(dirname(dir));
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const frameworks = cliFrameworks(newShopDir());
const pages = sitePages();
const guides = pages.filter((page) => page.id.startsWith('guides/'));
const gettingStarted = pages.find((page) => page.id === 'getting-started');

const CREATE = 'npm create paymount@latest my-shop';
const TEMPLATE_SECTION = 'Start from a template';
const EXISTING_APP_SECTION = 'Add to an existing app';

/** Folders no reader sees a README in: dependencies, builds, generated test projects. */
const NOT_WRITTEN = new Set(['node_modules', 'dist', '.generated', 'coverage', 'test-results']);

function readmesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('.') || NOT_WRITTEN.has(entry.name) ? [] : readmesUnder(path);
    return entry.name === 'README.md' ? [path] : [];
  });
}

/** `file:line: name` for each `--framework <name>` written in `path`. */
function frameworksWritten(path: string): { at: string; name: string }[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line, index) =>
      [...line.matchAll(/--framework[= ]+([^\s`'"|)\]<>,;]+)/g)].map(([, name = '']) => ({ at: `${relative(repoRoot, path)}:${index + 1}`, name })),
    );
}

/** A page's `## ` sections in order: the heading and the lines under it. */
function sections(page: Page): { heading: string; lines: string[] }[] {
  const found: { heading: string; lines: string[] }[] = [];
  let inFence = false;
  for (const line of readFileSync(page.path, 'utf8').split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    if (!inFence && line.startsWith('## ')) found.push({ heading: line.slice(3).trim(), lines: [] });
    else found.at(-1)?.lines.push(line);
  }
  return found;
}

/** The first line of the first fenced block of `lines`, and the block's language. */
function firstBlock(lines: string[]): { lang: string; firstLine: string | undefined } | undefined {
  const open = lines.findIndex((line) => line.startsWith('```'));
  return open < 0 ? undefined : { lang: lines[open]!.slice(3).trim(), firstLine: lines[open + 1] };
}

/** The template a guide starts from: its first section is "Start from a template", opening with the create command. */
function templateStartedBy(page: Page): string | undefined {
  const [first] = sections(page);
  if (first?.heading !== TEMPLATE_SECTION) return undefined;
  const block = firstBlock(first.lines);
  const prefix = `${CREATE} -- --framework `;
  const name = block?.lang === 'sh' && block.firstLine?.startsWith(prefix) ? block.firstLine.slice(prefix.length) : undefined;
  return name === undefined || /\s/.test(name) ? undefined : name;
}

it('finds the templates and the guides', () => {
  expect(frameworks).toContain('express');
  expect(guides.map((page) => page.id)).toContain('guides/express');
});

const written = [...pages.map((page) => page.path), ...readmesUnder(repoRoot)].flatMap(frameworksWritten);

it('finds --framework written on the site and in the READMEs', () => {
  expect(written.length).toBeGreaterThan(frameworks.length);
});

describe.each([...new Set(written.map(({ name }) => name))])('--framework %s, as written', (name) => {
  it(`is a template the CLI makes a shop of (places written: ${written.filter((found) => found.name === name).length})`, () => {
    const made = runCreatePaymount([newShopDir(), '--framework', name, '--no-install', '--package-manager', 'npm']);
    const where = written.filter((found) => found.name === name).map(({ at }) => at);
    expect({ code: made.code, err: made.err }, `written at ${where.join(', ')}`).toEqual({ code: 0, err: '' });
    expect(made.out).toContain(`Made the ${name} shop`);
  });
});

describe.each(frameworks)('the %s template', (framework) => {
  it(`has one guide whose first section, "${TEMPLATE_SECTION}", starts with \`${CREATE} -- --framework ${framework}\``, () => {
    expect(guides.filter((page) => templateStartedBy(page) === framework).map((page) => page.id)).toHaveLength(1);
  });
});

const headingsOf = (page: Page): string[] => sections(page).map((section) => section.heading);
// A guide with the section anywhere: a template's guide, whose section must be the first.
const templateGuides = guides.filter((page) => headingsOf(page).includes(TEMPLATE_SECTION));

it.each(templateGuides.map((page) => [page.id, page] as const))(`site/%s.md starts from a template (its first section), then "${EXISTING_APP_SECTION}"`, (_id, page) => {
  expect(frameworks).toContain(templateStartedBy(page));
  expect(headingsOf(page).slice(0, 2)).toEqual([TEMPLATE_SECTION, EXISTING_APP_SECTION]);
});

describe('site/getting-started.md', () => {
  const [first] = gettingStarted ? sections(gettingStarted) : [];

  it(`begins with \`${CREATE}\``, () => {
    expect(first && firstBlock(first.lines)).toEqual({ lang: 'sh', firstLine: CREATE });
  });

  const flags = [...new Set(runCreatePaymount(['--help']).out.match(/--[a-z][\w-]*/g))];
  it.each(flags)('its first section explains %s', (flag) => {
    expect(first?.lines.join('\n')).toContain(`\`${flag}\``);
  });
});

it('the repository README names npm create paymount', () => {
  expect(readFileSync(join(repoRoot, 'README.md'), 'utf8')).toContain('npm create paymount');
});
