/** What the wallet answers `loadPaymentData` with: only the token is read. */
export interface WalletPaymentData {
  paymentMethodData: { tokenizationData: { token: string } };
}

/** The one call of the wallet API the button makes: the wallet client library's `PaymentsClient`, or the sandbox's test wallet. */
export interface WalletClient {
  loadPaymentData(request: unknown): Promise<WalletPaymentData>;
}

/**
 * Which wallet pays: the sandbox's test wallet (the sandbox's URL), the
 * wallet's client library in its `TEST` or `PRODUCTION` environment, or a
 * client the page made itself.
 */
export type WalletSource = { sandbox: string } | { environment: 'TEST' | 'PRODUCTION'; scriptUrl?: string } | WalletClient;

/** Where the wallet's client library is served from; a page's CSP `script-src` must allow its origin. */
export const WALLET_SCRIPT_URL = 'https://pay.google.com/gp/p/js/pay.js';

interface WalletGlobals {
  PaymountTestWallet?: WalletClient;
  google?: { payments?: { api?: { PaymentsClient: new (options: { environment: string }) => WalletClient } } };
}

/** A client the page made itself, rather than a wallet named by its settings. */
const isWalletClient = (source: WalletSource): source is WalletClient => 'loadPaymentData' in source;

/**
 * What tells one wallet from another across a component's renders: a wallet
 * named by its settings (`{ sandbox: url }` written inline is a new object on
 * every render) by value, a client by identity. A component remounts its
 * button only when this changes.
 */
export const walletIdentity = (source: WalletSource): WalletClient | string => (isWalletClient(source) ? source : JSON.stringify(source));

const scripts = new Map<string, Promise<void>>();

/**
 * Adds `<script src>` once per URL (a remount, React's StrictMode, reuses it).
 * A script element with a `src`, not inline code, so a CSP without
 * `'unsafe-inline'` or `'unsafe-eval'` lets it run once it allows the origin.
 */
function loadScript(src: string): Promise<void> {
  let loading = scripts.get(src);
  if (!loading) {
    loading = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.onload = () => resolve();
      script.onerror = () => {
        // A later mount tries again: the network may be back.
        scripts.delete(src);
        reject(new Error(`The wallet script ${src} did not load.`));
      };
      document.head.append(script);
    });
    scripts.set(src, loading);
  }
  return loading;
}

/** The wallet client for `source`, loading its script unless the page already did. */
export async function walletClientOf(source: WalletSource): Promise<WalletClient> {
  if (isWalletClient(source)) return source;
  const globals = globalThis as WalletGlobals;
  if ('sandbox' in source) {
    if (!globals.PaymountTestWallet) await loadScript(`${source.sandbox.replace(/\/+$/, '')}/sandbox/test-wallet.js`);
    if (globals.PaymountTestWallet) return globals.PaymountTestWallet;
  } else {
    if (!globals.google?.payments?.api) await loadScript(source.scriptUrl ?? WALLET_SCRIPT_URL);
    const api = globals.google?.payments?.api;
    if (api) return new api.PaymentsClient({ environment: source.environment });
  }
  throw new Error('The wallet script loaded but defined no wallet.');
}
