import { mountWalletButton, walletIdentity, type WalletButtonOptions, type WalletFailed } from '@paymount/browser';
import { useEffect, useRef, type ButtonHTMLAttributes, type ReactNode } from 'react';

export interface WalletButtonProps extends WalletButtonOptions, Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled' | 'onClick' | 'type'> {
  /** Called once the button can be clicked (`true`), or with the failure that keeps it disabled. */
  onReady?: (ready: true | WalletFailed) => void;
  /** The button's label. Default: "Pay with wallet". */
  children?: ReactNode;
}

/**
 * `@paymount/browser`'s wallet button as a component. The button is mounted
 * once per order and wallet, not per render: the wallet request is fetched
 * once, and new callbacks of a re-render are used without a remount.
 */
export function WalletButton({ mount, orderId, wallet, onResult, onReady, children = 'Pay with wallet', ...buttonProps }: WalletButtonProps) {
  const element = useRef<HTMLButtonElement>(null);
  const latest = useRef({ wallet, onResult, onReady });
  useEffect(() => {
    latest.current = { wallet, onResult, onReady };
  });
  // A wallet written inline (`wallet={{ sandbox: url }}`) is a new object each render: only another wallet remounts.
  const walletKey = walletIdentity(wallet);

  useEffect(() => {
    if (!element.current) return undefined;
    let mounted = true;
    const button = mountWalletButton(element.current, {
      mount,
      orderId,
      wallet: latest.current.wallet,
      onResult: (result) => latest.current.onResult?.(result),
    });
    void button.ready.then((ready) => {
      // StrictMode's first mount, unmounted at once, is no one's news.
      if (mounted) latest.current.onReady?.(ready);
    });
    return () => {
      mounted = false;
      button.unmount();
    };
  }, [mount, orderId, walletKey]);

  // Rendered disabled, and never re-rendered otherwise: the browser module enables it once the wallet is ready.
  return (
    <button {...buttonProps} ref={element} type="button" disabled>
      {children}
    </button>
  );
}
