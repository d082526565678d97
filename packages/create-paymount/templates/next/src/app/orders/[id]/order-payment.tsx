'use client';

import { followOrderStatus, WalletButton, type WalletResult, type WalletSource } from '@paymount/react';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';

const RESULT_TEXT: Readonly<Record<WalletResult['outcome'], string>> = {
  paid: 'Payment sent; waiting for the confirmation…',
  pending: 'Payment sent; waiting for the confirmation…',
  declined: 'The payment was declined; nothing was charged. You can try again.',
  closed: 'The wallet was closed; nothing was charged.',
  failed: 'The payment did not go through.',
};

/**
 * The order page's browser side: the wallet button, and the payment followed until the webhook
 * settles it. The page says which order; the amount is the server's. The wallet's token goes from
 * the wallet straight into the POST to the shop's own payment route.
 */
export function OrderPayment({ mount, orderId, wallet, shownStatus }: { mount: string; orderId: string; wallet: WalletSource; shownStatus: string }) {
  const router = useRouter();
  const [message, setMessage] = useState('');

  useEffect(() => {
    // Settled: paid (no longer payable), or a decline the page does not show yet. Then the server renders it.
    const followed = followOrderStatus({ mount, orderId, until: (state) => !state.payable || (state.status === 'failed' && shownStatus !== 'failed') });
    void followed.done.then((state) => {
      if (state) router.refresh();
    });
    return followed.stop;
  }, [mount, orderId, shownStatus, router]);

  return (
    <>
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
