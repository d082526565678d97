import { paymentRouteHandlers } from '@paymount/next';
import { paymentOptions } from '../../../../payments';

// The README's route on the edge runtime, mounted at /edge/payments: its webhooks come back here.
export const runtime = 'edge';

export const { GET, POST, HEAD } = paymentRouteHandlers(() => ({
  ...paymentOptions(),
  notifyUrl: `${process.env.PUBLIC_URL}/edge/payments/webhook`,
}));
