import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { createSession } from './api/create-session';
import { directSale } from './api/direct-sale';
import { expireSession } from './api/expire-session';
import { refund } from './api/refund';
import { SandboxRefusal } from './envelope';
import { outcomeForTotal, refundOutcomeForTotal, SANDBOX_REFUND_AMOUNTS } from './outcomes';
import { currencyField, minorUnits, referenceOrderIdField, text } from './rules/fields';
import { parseBody } from './rules/issues';
import type { SandboxState } from './state';
import { mintWalletToken } from './wallet-token';
import type { Delivery } from './webhooks/deliveries';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhooks/event-name';
import { isPublicHttpsUrl } from './webhooks/notify-url';

export interface TriggerOptions {
  /**
   * Where the webhook goes: an http(s) URL on this machine (localhost,
   * 127.0.0.1, [::1]; allowed here whatever `allowLocalNotifyUrl` says) or a
   * public HTTPS URL.
   */
  forwardTo: string;
  /** The payment's payable total in minor units; default 2500 (payment.failed 8888, refund.failed 10000). */
  amount?: number;
  /** ISO 4217; default USD. */
  currency?: string;
  /** The payment's referenceOrderId, e.g. an order of the shop under development; default a fresh one. */
  referenceOrderId?: string;
}

/**
 * What the trigger route and `sandbox.trigger` accept, checked with the service routes' field codes.
 * Strict: a misspelt option is refused (R02), naming the one meant, rather than ignored.
 */
export const triggerRules = z.strictObject({
  event: z.enum(WEBHOOK_EVENTS, { error: `must be one of ${WEBHOOK_EVENTS.join(', ')}` }),
  forwardTo: text(2048).refine((url) => isPublicHttpsUrl(url, true), {
    message: 'must be an http(s) URL on this machine (localhost, 127.0.0.1, [::1]) or a public HTTPS URL',
    params: { code: 'D02' },
  }),
  amount: minorUnits.min(1, { error: 'must be at least 1' }).optional(),
  currency: currencyField.optional(),
  referenceOrderId: referenceOrderIdField.optional(),
});

const DEFAULT_AMOUNT: Readonly<Record<WebhookEvent, number>> = {
  'payment.succeeded': 2500,
  'payment.failed': 8888,
  'payment.closed': 2500,
  'refund.succeeded': 2500,
  'refund.failed': 10_000,
};

/** The refund total the sandbox declines: refund.failed refunds this much of its payment. */
const DECLINED_REFUND_TOTAL = Number(Object.keys(SANDBOX_REFUND_AMOUNTS)[0]);

const newId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;

function refuseAmount(event: WebhookEvent, amount: number, why: string): never {
  throw new SandboxRefusal('D03', `amount ${amount} cannot give ${event}: ${why}`, {
    data: { issues: [{ field: 'amount', code: 'D03', message: `amount ${why}` }] },
  });
}

/** Refuses an amount whose sandbox outcome is not the event's. payment.failed and payment.closed take any amount. */
function checkAmount(event: WebhookEvent, amount: number): void {
  const paid = outcomeForTotal(amount).transactionStatus === 'S';
  if ((event === 'payment.succeeded' || event.startsWith('refund.')) && !paid) {
    refuseAmount(event, amount, 'is a sandbox amount that declines the payment');
  }
  if (event === 'refund.succeeded' && refundOutcomeForTotal(amount).transactionStatus !== 'S') {
    refuseAmount(event, amount, 'is the sandbox refund amount that declines a full refund');
  }
  if (event === 'refund.failed' && amount < DECLINED_REFUND_TOTAL) {
    refuseAmount(event, amount, `must be at least ${DECLINED_REFUND_TOTAL}: the refund declined is a refund of ${DECLINED_REFUND_TOTAL}`);
  }
}

type TriggerInput = z.infer<typeof triggerRules> & { amount: number; currency: string; referenceOrderId: string };

/**
 * A direct wallet payment through the service's own code. `declined` pays
 * with a token that needs additional 3DS when the amount alone would succeed.
 */
function pay(state: SandboxState, input: TriggerInput, notifyUrl: string | undefined, declined = false): Record<string, unknown> {
  const { credentials } = state;
  const token = mintWalletToken(
    state.walletKeys,
    { gatewayId: credentials.gatewayId, merchantId: credentials.merchantId },
    state.clock.now(),
    { additional3dsRequired: declined && outcomeForTotal(input.amount).transactionStatus === 'S' },
  );
  return directSale(state, 'test', {
    appId: credentials.appId,
    merchantId: credentials.merchantId,
    transactionRequestId: newId('trg_'),
    referenceOrderId: input.referenceOrderId,
    description: `paymount-sandbox trigger ${input.event}`,
    amount: { orderAmount: input.amount, priceCurrency: input.currency },
    paymentMethod: 'WALLET_PAY',
    cardEncryptedData: token,
    ...(notifyUrl === undefined ? {} : { notifyUrl }),
  });
}

/** A hosted checkout session, expired unpaid at once: its `C` webhook. */
function closeUnpaid(state: SandboxState, input: TriggerInput): void {
  const { appId, merchantId } = state.credentials;
  const session = createSession(state, 'test', {
    appId,
    merchantId,
    transactionRequestId: newId('trg_'),
    referenceOrderId: input.referenceOrderId,
    amount: { orderAmount: input.amount, priceCurrency: input.currency },
    description: `paymount-sandbox trigger ${input.event}`,
    notifyUrl: input.forwardTo,
  });
  expireSession(state, 'test', { appId, merchantId, sessionId: String(session.sessionId), reason: 'closed by paymount-sandbox trigger' });
}

/** A paid payment (no webhook of its own), then its refund: in full, or the declined refund amount. */
function refundPayment(state: SandboxState, input: TriggerInput, declined: boolean): void {
  const { appId, merchantId } = state.credentials;
  const paid = pay(state, input, undefined);
  const transactionId = String(paid.transactionId);
  refund(state, 'test', {
    appId,
    merchantId,
    transactionRequestId: newId('trg_refund_'),
    originalTransactionId: transactionId,
    ids: { transactionId },
    ...(declined ? { amount: { priceCurrency: input.currency, orderAmount: DECLINED_REFUND_TOTAL } } : {}),
    description: `paymount-sandbox trigger ${input.event}`,
    notifyUrl: input.forwardTo,
  });
}

/**
 * Creates the transaction(s) behind `event` in the ledger, through the same
 * code as the service routes (a wallet payment, an expired hosted session, a
 * payment and its refund), and queues its signed webhook to `forwardTo`.
 * Returns that delivery, pending: `deliverer.settled` tells its outcome.
 * Refuses bad input (V01–V07, D02, D03; R02 an unknown option) before creating anything.
 */
export function trigger(state: SandboxState, request: Record<string, unknown>): Delivery {
  const parsed = parseBody(triggerRules, request);
  const input: TriggerInput = {
    ...parsed,
    amount: parsed.amount ?? DEFAULT_AMOUNT[parsed.event],
    currency: parsed.currency ?? 'USD',
    referenceOrderId: parsed.referenceOrderId ?? newId('trg_order_'),
  };
  checkAmount(input.event, input.amount);
  const deliveryIds = state.deliverer.sentBy(() => {
    if (input.event === 'payment.succeeded') pay(state, input, input.forwardTo);
    else if (input.event === 'payment.failed') pay(state, input, input.forwardTo, true);
    else if (input.event === 'payment.closed') closeUnpaid(state, input);
    else refundPayment(state, input, input.event === 'refund.failed');
  });
  const [deliveryId] = deliveryIds;
  if (deliveryId === undefined || deliveryIds.length !== 1) throw new Error(`trigger ${input.event} queued ${deliveryIds.length} deliveries, not 1`);
  return state.deliverer.find(deliveryId);
}
