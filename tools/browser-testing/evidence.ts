import type { BrowserContext, Page } from 'playwright-core';

/** One thing the browser saw or kept, with where it came from. */
interface Trace {
  where: string;
  text: string;
}

/**
 * Everything a secret could leak into on the browser side: every request URL,
 * every document and fetch answer, console lines, page errors, storage and
 * cookies. Also keeps each wallet token the page sent to the shop, read from
 * the body of POST /wallet/pay (the one place a token may travel).
 */
export class BrowserEvidence {
  readonly traces: Trace[] = [];
  readonly walletTokens = new Set<string>();
  private readonly pending: Array<Promise<void>> = [];

  /**
   * `walletMintUrl` is where the sandbox's test wallet fetches its token: that
   * answer is the wallet's own channel (a real wallet hands the token over
   * inside its own UI), so it is the one answer not searched.
   */
  constructor(
    private readonly walletPayUrl: string,
    private readonly walletMintUrl: string,
  ) {}

  record(context: BrowserContext): void {
    context.on('request', (request) => {
      this.traces.push({ where: `request URL`, text: request.url() });
      if (request.method() === 'POST' && request.url() === this.walletPayUrl) {
        const token = (request.postDataJSON() as { token?: unknown } | null)?.token;
        if (typeof token === 'string') this.walletTokens.add(token);
      }
    });
    context.on('response', (response) => {
      const type = response.request().resourceType();
      if ((type !== 'document' && type !== 'fetch' && type !== 'xhr') || response.url() === this.walletMintUrl) return;
      this.pending.push(
        response.text().then(
          (text) => void this.traces.push({ where: `${type} answer from ${response.url()}`, text }),
          () => undefined, // A redirect or a page that navigated away has no body to read.
        ),
      );
    });
    context.on('console', (message) => this.traces.push({ where: 'browser console', text: message.text() }));
    context.on('weberror', (error) => this.traces.push({ where: 'page error', text: String(error.error()) }));
  }

  /** Storage and cookies as the journey left them. */
  async collectStorage(context: BrowserContext, page: Page): Promise<void> {
    await Promise.all(this.pending.splice(0));
    const state = await context.storageState();
    this.traces.push({ where: 'cookies and local storage', text: JSON.stringify(state) });
    if (!page.isClosed()) {
      // A string, run in the page: not every package using this type-checks with the DOM's declarations.
      const session = String(await page.evaluate('JSON.stringify({ ...window.sessionStorage, ...window.localStorage })'));
      this.traces.push({ where: `storage of ${page.url()}`, text: session });
    }
  }

  /** Secrets to look for: each wallet token, also by its signature, which survives re-escaping of the JSON. */
  tokenFingerprints(): string[] {
    return [...this.walletTokens].flatMap((token) => {
      const signature = (JSON.parse(token) as { signature?: unknown }).signature;
      return typeof signature === 'string' ? [token, signature] : [token];
    });
  }
}

/** Where any of `secrets` appears among `traces`; an empty list means nothing leaked. */
export function leaks(traces: Iterable<Trace>, secrets: ReadonlyArray<{ name: string; value: string }>): string[] {
  const found: string[] = [];
  for (const trace of traces) {
    for (const secret of secrets) {
      if (trace.text.includes(secret.value)) found.push(`${secret.name} in ${trace.where}`);
    }
  }
  return found;
}
