import { WEBHOOK_ROUTE } from '../telemetry/route-spans';

/**
 * The payment routes' paths below the mount point, known before any options
 * are: a router that registers each path up front (a Hono app whose options
 * arrive with its first request) registers exactly these. `createPaymentRoutes`
 * serves these and no other.
 */
export const PAYMENT_ROUTE_PATHS = ['/checkout', '/wallet/config', '/wallet/pay', '/status', WEBHOOK_ROUTE] as const;

export type PaymentRoutePath = (typeof PAYMENT_ROUTE_PATHS)[number];
