import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtFiles, serveBuiltSite } from './built-site';

let site: { url: string; server: Server };
beforeAll(async () => {
  site = await serveBuiltSite();
});
afterAll(() => {
  site.server.close();
});

const get = async (path: string) => {
  const response = await fetch(`${site.url}/${path}`);
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
};

describe('llms.txt, llms-full.txt and a Markdown twin of every page', () => {
  it("llms.txt at the site's root names the site, and every page it lists is served as Markdown", async () => {
    const llms = await get('llms.txt');
    expect(llms.status).toBe(200);
    expect(llms.text.startsWith('# paymount\n\n> ')).toBe(true);
    const links = [...llms.text.matchAll(/\]\(\/([^)]+\.md)\)/g)].map(([, path = '']) => path);
    expect(links).toContain('troubleshooting/error-codes.md');
    expect(links).toContain('getting-started.md');
    expect(links).toContain('reference/api/index.md');
    for (const path of links) expect({ path, status: (await get(path)).status }).toEqual({ path, status: 200 });
  });

  it('llms-full.txt holds the pages themselves, error codes included', async () => {
    const full = await get('llms-full.txt');
    expect(full.status).toBe(200);
    expect(full.text).toContain('### ORDER_NOT_FOUND {#ORDER_NOT_FOUND}');
    expect(full.text).toContain('# Getting started');
  });

  it('every built page has its Markdown twin beside it', async () => {
    const pages = builtFiles().filter((file) => file.endsWith('.html') && file !== '404.html');
    const twins = new Set(builtFiles().filter((file) => file.endsWith('.md')));
    expect(pages.filter((page) => !twins.has(page.replace(/\.html$/, '.md')))).toEqual([]);
    const twin = await get('troubleshooting/error-codes.md');
    expect(twin.type).toContain('text/markdown');
    expect(twin.text).toContain('# Error codes');
  });
});
