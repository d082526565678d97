import { runInNewContext } from 'node:vm';
import type { WalletClient } from '../../src';

/**
 * The sandbox's own test wallet (`GET /sandbox/test-wallet.js`), run in Node
 * as a page runs it, with `window` and `fetch`: the wallet the browser tests
 * load, for the tests that need no browser.
 */
export async function sandboxTestWallet(sandboxUrl: string): Promise<WalletClient> {
  const script = await (await fetch(`${sandboxUrl}/sandbox/test-wallet.js`)).text();
  const page: { fetch: typeof fetch; window?: unknown; PaymountTestWallet?: WalletClient } = { fetch };
  page.window = page;
  runInNewContext(script, page);
  if (!page.PaymountTestWallet) throw new Error('the test wallet script defined no wallet');
  return page.PaymountTestWallet;
}

/** `wallet`, keeping each token it hands out, so a test can look for them where they must not be. */
export function keepingTokens(wallet: WalletClient, tokens: string[]): WalletClient {
  return {
    async loadPaymentData(request) {
      const data = await wallet.loadPaymentData(request);
      tokens.push(data.paymentMethodData.tokenizationData.token);
      return data;
    },
  };
}

/** A button as the wallet button needs one: clicks and `disabled`. */
export class TestButton extends EventTarget {
  disabled = false;

  click(): void {
    if (!this.disabled) this.dispatchEvent(new Event('click'));
  }
}
