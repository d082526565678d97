import { paymentRouteHandlers } from '@paymount/next';
import { shop } from '@/shop';

// /payments/checkout, /payments/wallet/config, /payments/wallet/pay, /payments/status, /payments/webhook.
// On the Node.js runtime, as every route of the shop: its orders are in PGlite or PostgreSQL over pg.
export const runtime = 'nodejs';
export const { GET, POST, HEAD } = paymentRouteHandlers(async () => (await shop()).payments);
