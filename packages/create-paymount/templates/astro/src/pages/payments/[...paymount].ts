import { payments } from '../../shop.js';

// paymount's routes under /payments: checkout, wallet, status and the webhook.
export const { GET, POST, HEAD, ALL } = payments;
