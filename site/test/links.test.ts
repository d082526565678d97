import { readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { PaymentErrorCode } from '@paymount/core';
import { DELIVERY_FAILURE_ANCHORS, DOCS_BASE_URL, WEBHOOK_FAILURE_REASONS, docsUrl } from '@paymount/core/internal';
import { SANDBOX_CODES } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anchorsOf, builtFiles, builtPage, serveBuiltSite } from './built-site';

let site: { url: string; server: Server };
beforeAll(async () => {
  site = await serveBuiltSite();
});
afterAll(() => {
  site.server.close();
});

/** A link's page in site/dist and its anchor, or undefined for a link out of the site. */
function target(href: string, from: string): { page: string; anchor: string | undefined } | undefined {
  const url = new URL(href, new URL(from, 'http://site/'));
  if (url.origin !== 'http://site') return undefined;
  const page = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
  return { page: page.slice(1), anchor: url.hash === '' ? undefined : decodeURIComponent(url.hash.slice(1)) };
}

/** What is wrong with a link to `page#anchor`, fetched from the served site as a reader's browser would; undefined when nothing. */
async function brokenLink(page: string, anchor: string | undefined): Promise<string | undefined> {
  const response = await fetch(`${site.url}/${page}`);
  if (response.status !== 200) return `${page}: HTTP ${response.status}`;
  if (anchor === undefined) return undefined;
  return anchorsOf(await response.text()).has(anchor) ? undefined : `${page}: no #${anchor}`;
}

describe('the built site, served as plain files', () => {
  it('every internal link of every page resolves to a page, and its anchor to an element of that page', async () => {
    const pages = builtFiles().filter((file) => file.endsWith('.html'));
    const links = new Map<string, { page: string; anchor: string | undefined; from: string }>();
    for (const from of pages) {
      for (const [, href = ''] of builtPage(from).matchAll(/<a\s[^>]*?href="([^"]*)"/g)) {
        const to = target(href.replace(/&amp;/g, '&'), from);
        if (to !== undefined) links.set(`${to.page}#${to.anchor ?? ''}`, { ...to, from });
      }
    }
    // The home page links to the guide and the troubleshooting entry page, each page to its headings.
    expect(pages.length).toBeGreaterThanOrEqual(7);
    expect(links.size).toBeGreaterThan(pages.length * 3);
    const broken: string[] = [];
    for (const { page, anchor, from } of links.values()) {
      const problem = await brokenLink(page, anchor);
      if (problem !== undefined) broken.push(`${from} -> ${problem}`);
    }
    expect(broken).toEqual([]);
  });
});

describe('troubleshooting by error code: every code, from the source, has its entry', () => {
  const entries = (page: string) => anchorsOf(builtPage(page));

  it('every PaymentErrorCode (webhook failure codes included)', () => {
    const codes = Object.values(PaymentErrorCode);
    expect(codes).toContain('ORDER_NOT_FOUND');
    expect(codes.filter((code) => !entries('troubleshooting/error-codes.html').has(code))).toEqual([]);
  });

  it("every webhook failure reason's code (`WEBHOOK_` and the reason in capitals)", () => {
    const codes = WEBHOOK_FAILURE_REASONS.map((reason) => `WEBHOOK_${reason.toUpperCase()}`);
    expect(codes.filter((code) => !entries('troubleshooting/error-codes.html').has(code))).toEqual([]);
  });

  it('every code the sandbox answers a refusal with', () => {
    const codes = Object.keys(SANDBOX_CODES);
    expect(codes).toContain('S04');
    expect(codes.filter((code) => !entries('troubleshooting/sandbox-codes.html').has(code))).toEqual([]);
  });

  it('every "why a delivery failed" diagnosis of the sandbox', () => {
    expect(DELIVERY_FAILURE_ANCHORS.filter((anchor) => !entries('troubleshooting/webhook-deliveries.html').has(anchor))).toEqual([]);
  });
});

describe('every link a message can make points at an entry of the site', () => {
  // docsUrl takes only an anchor its page has (a type per page): these are all the links it can build.
  const links = [
    ...Object.values(PaymentErrorCode).map((code) => docsUrl('errorCodes', code)),
    ...DELIVERY_FAILURE_ANCHORS.map((anchor) => docsUrl('deliveryFailures', anchor)),
  ];

  it.each(links)('%s', async (link) => {
    expect(link.startsWith(`${DOCS_BASE_URL}/`)).toBe(true);
    const url = new URL(link);
    expect(await brokenLink(url.pathname.slice(new URL(DOCS_BASE_URL).pathname.replace(/\/$/, '').length + 1), url.hash.slice(1))).toBeUndefined();
  });
});

describe('no message links to a README anchor on the registry any more', () => {
  it("no package's source names an npmjs.com README link: each now points at its entry of the site", () => {
    const packages = new URL('../../packages/', import.meta.url);
    const offenders = readdirSync(packages, { recursive: true, encoding: 'utf8' })
      .filter((file) => /(^|\/)src\/.*\.(ts|tsx|vue|svelte|astro)$/.test(file) && !file.includes('node_modules'))
      .filter((file) => /npmjs\.com\/package\/[^\s'"`]*#/.test(readFileSync(new URL(file, packages), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
