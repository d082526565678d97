import type { PaymentErrorCode } from './errors';

/**
 * Where paymount's documentation site (site/, `npm run site:build`) is served. Every message that
 * links to the documentation builds its link from here, so hosting the site elsewhere is this one line.
 */
export const DOCS_BASE_URL = 'https://paymount.dev';

/**
 * The site's pages a message links to, as the site serves them (plain files, `.html` kept, so a
 * link works from any static host). site/test/links.test.ts holds each page and anchor to the built site.
 */
const DOCS_PAGES = {
  errorCodes: 'troubleshooting/error-codes.html',
  deliveryFailures: 'troubleshooting/webhook-deliveries.html',
} as const;

/** The entries of "Why a delivery failed" (site/troubleshooting/webhook-deliveries.md), one per diagnosis the sandbox gives. */
export const DELIVERY_FAILURE_ANCHORS = [
  'app-own-signature-check',
  'app-auth',
  'app-not-mounted',
  'app-body-parser',
  'app-rate-limiter',
  'app-redirect',
  'app-server-error',
  'app-other',
  'wrong-route',
  'paymount-refused',
  'no-answer-refused',
  'no-answer-timeout',
  'no-answer-dns',
  'no-answer-tls',
  'no-answer-closed',
] as const;

export type DeliveryFailureAnchor = (typeof DELIVERY_FAILURE_ANCHORS)[number];

/** The anchors each page has: an error code's entry is the code itself. */
interface DocsAnchors {
  errorCodes: PaymentErrorCode;
  deliveryFailures: DeliveryFailureAnchor;
}

/** The link to an entry of the documentation site; an anchor the page does not have does not compile. */
export function docsUrl<P extends keyof DocsAnchors>(page: P, anchor: DocsAnchors[P]): string {
  return `${DOCS_BASE_URL}/${DOCS_PAGES[page]}#${anchor}`;
}

/**
 * The anchor the documentation site gives a heading: VitePress's own slug rule (its default `slugify`), so a
 * message can name a guide's section by its title (a heading holds no control character, the rule's one other step).
 * site/test/heading-anchors.test.ts holds the rule to the built pages.
 */
export function headingAnchor(heading: string): string {
  return heading
    .normalize('NFKD')
    .replace(/[\u0300-\u036F]/g, '')
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();
}

/** The link to a section of a framework's guide on the site (site/guides/<guide>.md), by the section's title. */
export function guideSectionUrl(guide: string, section: string): string {
  return `${DOCS_BASE_URL}/guides/${guide}.html#${headingAnchor(section)}`;
}
