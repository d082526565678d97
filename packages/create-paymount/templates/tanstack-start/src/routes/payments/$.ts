import { createServerFileRoute } from '@tanstack/react-start/server';
import { payments } from '../../shop.js';

// paymount's routes under /payments: checkout, wallet, status and the webhook.
export const ServerRoute = createServerFileRoute('/payments/$').methods(payments.methods);
