import { randomUUID } from 'node:crypto';
import { deliveryHeaders, webhookPayload } from '../fixtures/webhook-delivery';

/** What the load generator sends; built in its own process, per request where each must be distinct. */
export type RequestSpec =
  /** POST {orderId} in JSON, cycling through the given orders. */
  | { kind: 'checkout'; path: string; orderIds: readonly string[] }
  /** POST {orderId, token} in JSON, every request a new order (`orderPrefix` + a counter). */
  | { kind: 'wallet-pay'; path: string; orderPrefix: string; token: string }
  /**
   * A freshly signed, never repeated webhook delivery of `payloadBytes`. Its
   * events repeat from one run to the next (a later run's deliveries are
   * duplicates) unless `freshEvents`: then every run's events are new.
   */
  | { kind: 'webhook'; path: string; secret: string; payloadBytes: number; freshEvents?: boolean }
  /** An authenticated create-session call with fresh request ids, as the service requires. */
  | { kind: 'create-session'; path: string; apiKey: string; appId: string; merchantId: string };

export interface OutgoingRequest {
  path: string;
  headers: Record<string, string>;
  body: string | Buffer;
}

export function requestMaker(spec: RequestSpec): () => OutgoingRequest {
  let n = 0;
  switch (spec.kind) {
    case 'checkout': {
      const bodies = spec.orderIds.map((orderId) => JSON.stringify({ orderId }));
      const headers = { 'content-type': 'application/json', accept: 'application/json' };
      return () => ({ path: spec.path, headers, body: bodies[n++ % bodies.length]! });
    }
    case 'wallet-pay': {
      const run = randomUUID().slice(0, 8);
      const headers = { 'content-type': 'application/json', accept: 'application/json' };
      return () => ({ path: spec.path, headers, body: JSON.stringify({ orderId: `${spec.orderPrefix}${run}-${n++}`, token: spec.token }) });
    }
    case 'webhook': {
      const run = randomUUID().slice(0, 8);
      return () => {
        const body = webhookPayload(n, spec.payloadBytes, spec.freshEvents ? `${run}_` : '');
        return { path: spec.path, headers: deliveryHeaders(body, spec.secret, `dlv_${run}_${n++}`, Date.now()), body };
      };
    }
    case 'create-session': {
      const run = randomUUID().replaceAll('-', '').slice(0, 12);
      return () => {
        const id = `${run}${n++}`;
        return {
          path: spec.path,
          headers: {
            authorization: `Bearer ${spec.apiKey}`,
            'content-type': 'application/json',
            'x-client-request-id': randomUUID(),
            'x-timestamp': String(Date.now()),
          },
          body: JSON.stringify({
            appId: spec.appId,
            merchantId: spec.merchantId,
            transactionRequestId: `tr_${id}`,
            referenceOrderId: `order_${id}`.slice(0, 32),
            amount: { orderAmount: 1999, priceCurrency: 'USD' },
            description: 'Bench order',
          }),
        };
      };
    }
  }
}
