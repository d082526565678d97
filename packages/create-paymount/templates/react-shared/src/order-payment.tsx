import { followOrderStatus, WalletButton, type WalletResult, type WalletSource } from '@paymount/react';
import { useEffect, useState } from 'react';
import type { OrderStatus } from './order-rules.js';

const RESULT_TEXT: Readonly<Record<WalletResult['outcome'], string>> = {
  paid: 'Payment sent; waiting for the confirmation…',
  pending: 'Payment sent; waiting for the confirmation…',
  declined: 'The payment was declined; nothing was charged. You can try again.',
  closed: 'The wallet was closed; nothing was charged.',
  failed: 'The payment did not go through.',
};

export interface OrderPaymentProps {
  /** Where paymount's routes are mounted. */
  mount: string;
  orderId: string;
  wallet: WalletSource;
  /** The status the page was rendered with. */
  shownStatus: OrderStatus;
  /** Renders the page again from the server: the framework's own reload of its data. */
  onSettled: () => void;
}

/**
 * What a payable order's page shows to pay it: the hosted checkout's form (a document post, which
 * paymount's checkout route answers with a 303 to the service's page), the wallet button, and the
 * payment followed until the webhook settles it. The page names the order; the amount is the
 * server's. The wallet's token goes from the wallet straight into the POST to the shop's payment route.
 */
export function OrderPayment({ mount, orderId, wallet, shownStatus, onSettled }: OrderPaymentProps) {
  const [message, setMessage] = useState('');

  useEffect(() => {
    // Settled: paid (no longer payable), or a decline the page does not show yet. Then the server renders it.
    const followed = followOrderStatus({ mount, orderId, until: (state) => !state.payable || (state.status === 'failed' && shownStatus !== 'failed') });
    void followed.done.then((state) => {
      if (state) onSettled();
    });
    return followed.stop;
  }, [mount, orderId, shownStatus, onSettled]);

  return (
    <>
      <form method="post" action={`${mount}/checkout`} id="checkout-form">
        <input type="hidden" name="orderId" value={orderId} />
        <button type="submit" id="checkout">
          Pay on the checkout page
        </button>
      </form>
      <WalletButton
        mount={mount}
        orderId={orderId}
        wallet={wallet}
        id="wallet-pay"
        onReady={(ready) => {
          if (ready !== true) setMessage('The wallet is not available in this browser.');
        }}
        onResult={(result) => setMessage(result.outcome === 'failed' ? `${RESULT_TEXT.failed} ${result.error.message}` : RESULT_TEXT[result.outcome])}
      />
      <p id="payment-message" role="status">
        {message}
      </p>
    </>
  );
}
