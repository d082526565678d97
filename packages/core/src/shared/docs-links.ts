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
