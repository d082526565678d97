import { randomUUID } from 'node:crypto';
import { signWebhook, type SignedWebhook } from '@paymount/core';
import type { Delivery, Sandbox } from '@paymount/sandbox';
import type { Agent } from 'undici';
import { send, type Answer } from './http';

/**
 * What an attacker holding one captured delivery can send: its exact signed
 * body, with a signature recomputed as the service computes it (so it matches,
 * as the captured one does) and headers of the attacker's choosing, a fresh
 * X-Timestamp and any delivery id.
 */
export function replayOf(
  sandbox: Sandbox,
  delivery: Pick<Delivery, 'body'>,
  headers: { deliveryId?: string; timestamp?: number } = {},
): SignedWebhook {
  return signWebhook({
    rawBody: delivery.body,
    secret: sandbox.webhookSecret,
    deliveryId: headers.deliveryId ?? randomUUID(),
    timestamp: headers.timestamp ?? sandbox.clock.now(),
  });
}

/** A body the service could have sent: signed with its secret, its notifyTime now on its clock. */
export function serviceDelivery(sandbox: Sandbox, payload: Record<string, unknown>, deliveryId?: string): SignedWebhook {
  return signWebhook({
    payload: { notifyTime: new Date(sandbox.clock.now()).toISOString(), ...payload },
    secret: sandbox.webhookSecret,
    timestamp: sandbox.clock.now(),
    ...(deliveryId === undefined ? {} : { deliveryId }),
  });
}

/** Posts a delivery to the mounted webhook route. */
export function deliverTo(agent: Agent, routesUrl: string, delivery: SignedWebhook): Promise<Answer> {
  return send(agent, `${routesUrl}/webhook`, { method: 'POST', headers: delivery.headers, body: delivery.body });
}

/** The error code of a JSON error answer, or undefined. */
export function errorCodeOf(answer: Answer): string | undefined {
  return (answer.json as { error?: { code?: string } } | undefined)?.error?.code;
}
