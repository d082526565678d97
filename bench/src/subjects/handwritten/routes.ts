import type { Dispatcher } from 'undici';
import { ORDERS, WEBHOOK_SECRET } from '../../fixtures/shop';
import { createSessionOnUndici } from './create-session';
import { SeenDeliveries, verifyByHand } from './webhook-verify';

export interface RouteAnswer {
  status: number;
  body: unknown;
}

/** POST /checkout written by hand: look the order up, one undici call, answer the two fields. */
export async function checkoutByHand(dispatcher: Dispatcher, upstream: string, body: unknown): Promise<RouteAnswer> {
  const orderId = (body as { orderId?: unknown } | undefined)?.orderId;
  if (typeof orderId !== 'string') return { status: 400, body: { error: 'orderId is required' } };
  const order = ORDERS.get(orderId);
  if (!order) return { status: 404, body: { error: 'no such order' } };
  return { status: 201, body: await createSessionOnUndici(dispatcher, upstream, order) };
}

/** POST /webhook written by hand: verify, drop repeats, run the handler. */
export function webhookByHand(onEvent: (payload: unknown) => void): (raw: Buffer, headers: Record<string, string | string[] | undefined>) => RouteAnswer {
  const seen = new SeenDeliveries(10_000);
  return (raw, headers) => {
    const delivery = verifyByHand(raw, headers, WEBHOOK_SECRET);
    if (!delivery) return { status: 400, body: { error: 'invalid delivery' } };
    if (seen.add(delivery.deliveryId)) onEvent(delivery.payload);
    return { status: 200, body: { received: true } };
  };
}
