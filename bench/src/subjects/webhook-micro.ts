import { verifyWebhook } from '@paymount/core';
import { deliveryHeaders, PAYLOAD_BYTES, webhookPayload } from '../fixtures/webhook-delivery';
import { WEBHOOK_SECRET } from '../fixtures/shop';
import { serveHarness } from '../harness/child-side';
import { runTimedLoop } from '../harness/closed-loop';
import { verifyBare } from './handwritten/webhook-verify';

export type VerifySide = 'paymount' | 'bare';

export interface VerifyRequest {
  side: VerifySide;
  durationMs: number;
  maxOps: number;
}

/** verifyWebhook and the bare three steps, on the same 1 KiB delivery, in one process taking turns. */
serveHarness(async () => {
  const raw = webhookPayload(1, PAYLOAD_BYTES);
  const headers = deliveryHeaders(raw, WEBHOOK_SECRET, 'dlv_micro', Date.now());
  const signature = headers['x-signature']!;
  const ops = {
    paymount: { async: () => verifyWebhook({ rawBody: raw, headers, secret: WEBHOOK_SECRET }) },
    bare: { sync: () => verifyBare(raw, signature, WEBHOOK_SECRET) },
  };
  // Both must accept the delivery, or the figure would compare a failure path.
  if ((await verifyWebhook({ rawBody: raw, headers, secret: WEBHOOK_SECRET })).type !== 'payment.succeeded') throw new Error('paymount refused the delivery');
  if (verifyBare(raw, signature, WEBHOOK_SECRET) === undefined) throw new Error('the bare check refused the delivery');
  return {
    ready: { bytes: raw.byteLength },
    handle: (request) => {
      const { side, durationMs, maxOps } = request as VerifyRequest;
      return runTimedLoop(ops[side], durationMs, maxOps);
    },
  };
});
