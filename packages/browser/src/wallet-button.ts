import { callRoute, routeUrl, type RouteError } from './route-call';
import { walletClientOf, type WalletClient, type WalletSource } from './wallet-client';

/** A click that ended without a payment the routes could answer: the route's (or the wallet's) error code. */
export interface WalletFailed {
  outcome: 'failed';
  orderId: string;
  error: RouteError;
}

/**
 * How one click ended. `paid` and `pending` leave the button disabled (a
 * pending payment is settled by the service's webhook: follow the order's
 * status); the others enable it again, so the shopper can pay again.
 */
export type WalletResult =
  | { outcome: 'paid'; orderId: string; transactionId?: string }
  | { outcome: 'pending'; orderId: string }
  /** `reason`: the service's short reason code (`CARD_DECLINED`), when it gave one. */
  | { outcome: 'declined'; orderId: string; reason?: string }
  /** The shopper closed the wallet's sheet: nothing was charged. */
  | { outcome: 'closed'; orderId: string }
  | WalletFailed;

export interface WalletButtonOptions {
  /** Where the payment routes are mounted, e.g. `/payments`. */
  mount: string;
  orderId: string;
  wallet: WalletSource;
  /** Called once per click with how it ended. */
  onResult?: (result: WalletResult) => void;
}

export interface WalletButton {
  /** `true` once the button can be clicked; the failure that keeps it disabled otherwise (no wallet, an order the routes refuse). */
  ready: Promise<true | WalletFailed>;
  /** Stops the button: no later click pays, and a setup still running never enables it. */
  unmount(): void;
}

/** The button's element: a `<button>`, or anything with `disabled` that dispatches clicks. */
export type WalletButtonElement = EventTarget & { disabled: boolean };

interface PayAnswer {
  status: 'succeeded' | 'failed' | 'closed' | 'pending';
  transactionId?: string;
  resultCode?: string;
}

/**
 * Makes `element` a wallet button for one order. The wallet request is fetched
 * before the click: a wallet opens its sheet only while the click's user
 * activation lasts, so nothing may be awaited between the click and
 * `loadPaymentData`. The token goes from the wallet straight into the body of
 * `POST wallet/pay`: never logged, stored, put in a URL or in a result.
 */
export function mountWalletButton(element: WalletButtonElement, options: WalletButtonOptions): WalletButton {
  const { mount, orderId } = options;
  const failed = (error: RouteError): WalletFailed => ({ outcome: 'failed', orderId, error });
  let mounted = true;
  let onClick: (() => void) | undefined;

  async function pay(sheet: ReturnType<WalletClient['loadPaymentData']>): Promise<WalletResult> {
    let token: string;
    try {
      token = (await sheet).paymentMethodData.tokenizationData.token;
    } catch (error) {
      const { statusCode, statusMessage } = (error ?? {}) as { statusCode?: unknown; statusMessage?: unknown };
      if (statusCode === 'CANCELED') return { outcome: 'closed', orderId };
      return failed({
        code: typeof statusCode === 'string' ? statusCode : 'WALLET_ERROR',
        message: typeof statusMessage === 'string' ? statusMessage : 'The wallet could not pay.',
        status: 0,
      });
    }
    const answer = await callRoute<PayAnswer>(routeUrl(mount, 'wallet/pay'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, token }),
    });
    if (!answer.ok) return failed(answer.error);
    const { status, transactionId, resultCode } = answer.body;
    if (status === 'succeeded') return transactionId ? { outcome: 'paid', orderId, transactionId } : { outcome: 'paid', orderId };
    if (status === 'pending') return { outcome: 'pending', orderId };
    return resultCode ? { outcome: 'declined', orderId, reason: resultCode } : { outcome: 'declined', orderId };
  }

  element.disabled = true;
  const ready = Promise.all([walletClientOf(options.wallet), callRoute<unknown>(routeUrl(mount, 'wallet/config', orderId))]).then(
    ([wallet, config]): true | WalletFailed => {
      if (!config.ok) return failed(config.error);
      if (!mounted) return failed({ code: 'UNMOUNTED', message: 'The button was unmounted before it was ready.', status: 0 });
      onClick = () => {
        if (element.disabled) return;
        element.disabled = true;
        const sheet = wallet.loadPaymentData(config.body);
        void pay(sheet).then((result) => {
          if (mounted) element.disabled = result.outcome === 'paid' || result.outcome === 'pending';
          options.onResult?.(result);
        });
      };
      element.addEventListener('click', onClick);
      element.disabled = false;
      return true;
    },
    (error: unknown) => failed({ code: 'WALLET_UNAVAILABLE', message: error instanceof Error ? error.message : String(error), status: 0 }),
  );
  return {
    ready,
    unmount() {
      mounted = false;
      if (onClick) element.removeEventListener('click', onClick);
    },
  };
}
