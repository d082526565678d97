import type { ServiceCall } from '../call-log';
import { SANDBOX_CODES } from '../codes';
import type { Charge, Refund } from '../ledger';
import { splitLocalFix } from '../local-fix';
import { payableTotal } from '../rules/fields';
import type { SessionState } from '../sessions';
import type { SandboxState } from '../state';
import type { Delivery, DeliveryAttempt } from '../webhooks/deliveries';
import { diagnoseAttempt, type AttemptDiagnosis } from '../webhooks/diagnosis';
import { isoTime } from '../iso-time';

/** How many of each record the dashboard shows: the most recent ones. */
export const DASHBOARD_ROWS = 50;

export interface SessionRow {
  sessionId: string;
  referenceOrderId: string;
  description: string;
  state: SessionState;
  payableTotal: number;
  priceCurrency: string;
  /** ISO 8601, service time. */
  createdAt: string;
  expiresAt: string;
  closeReason?: string;
}

/** A service call as the dashboard shows it: a refusal with the rule its code stands for and, split from its message, the sandbox's fix. */
export interface CallView extends Omit<ServiceCall, 'at' | 'msg'> {
  /** ISO 8601, service time. */
  at: string;
  refused: boolean;
  /** What the refusal said, without its fix. */
  message?: string;
  /** The rule of the refusal's code (the table of site/reference/sandbox.md). */
  rule?: string;
  /** How to lift the refusal on this machine, when the sandbox knows it. */
  fix?: string;
}

export interface AttemptView extends DeliveryAttempt {
  diagnosis: AttemptDiagnosis;
}

export interface DeliveryView extends Omit<Delivery, 'attempts' | 'body'> {
  referenceOrderId?: string;
  attempts: AttemptView[];
}

/** What the dashboard shows, newest first, each list cut to DASHBOARD_ROWS. */
export interface DashboardSnapshot {
  /** The order id filter, when one is set. */
  orderId?: string;
  /** Service time, ISO 8601. */
  now: string;
  sessions: SessionRow[];
  charges: Charge[];
  refunds: Refund[];
  deliveries: DeliveryView[];
  /** The service calls answered, refusals first; every order's, as a call need not name one. */
  calls: CallView[];
}

/** The newest `DASHBOARD_ROWS` of `items` whose order id passes the filter, newest first. */
function newest<T>(items: readonly T[], orderOf: (item: T) => unknown, orderId: string | undefined): T[] {
  const kept = orderId === undefined ? items : items.filter((item) => orderOf(item) === orderId);
  return kept.slice(-DASHBOARD_ROWS).reverse();
}

function deliveryView(delivery: Delivery): DeliveryView {
  const { attempts, body: _body, ...rest } = delivery;
  const orderId = delivery.payload.referenceOrderId;
  return {
    ...rest,
    ...(typeof orderId === 'string' ? { referenceOrderId: orderId } : {}),
    attempts: attempts.map((attempt) => ({ ...attempt, diagnosis: diagnoseAttempt(attempt, delivery.url) })),
  };
}

function callView(call: ServiceCall): CallView {
  const { at, msg, ...rest } = call;
  const refused = call.code !== '0';
  const rule = (SANDBOX_CODES as Readonly<Record<string, { rule: string }>>)[call.code]?.rule;
  const { refused: message, fix } = msg === undefined ? { refused: undefined, fix: undefined } : splitLocalFix(msg);
  return {
    ...rest,
    at: isoTime(at),
    refused,
    ...(message === undefined ? {} : { message }),
    ...(refused && rule !== undefined ? { rule } : {}),
    ...(fix === undefined ? {} : { fix }),
  };
}

/** The newest DASHBOARD_ROWS calls, refusals first (what a developer looks for), each group newest first. */
function callsShown(calls: readonly ServiceCall[]): CallView[] {
  const newestFirst = [...calls].reverse();
  return [...newestFirst.filter((call) => call.code !== '0'), ...newestFirst.filter((call) => call.code === '0')].slice(0, DASHBOARD_ROWS).map(callView);
}

/** The sandbox's sessions, payments, refunds and deliveries as the dashboard shows them, filtered by order id, and the service calls it answered. */
export function dashboardSnapshot(state: SandboxState, orderId: string | undefined): DashboardSnapshot {
  const now = state.clock.now();
  const sessions = newest(state.sessions.list(now), (session) => session.request.referenceOrderId, orderId).map(
    (session): SessionRow => ({
      sessionId: session.sessionId,
      referenceOrderId: session.request.referenceOrderId,
      description: session.request.description,
      state: session.state,
      payableTotal: payableTotal(session.request.amount),
      priceCurrency: session.request.amount.priceCurrency,
      createdAt: isoTime(session.createdAt),
      expiresAt: isoTime(session.expiresAt),
      ...(session.closeReason ? { closeReason: session.closeReason.message } : {}),
    }),
  );
  return {
    ...(orderId === undefined ? {} : { orderId }),
    now: isoTime(now),
    sessions,
    charges: newest(state.ledger.charges(), (charge) => charge.referenceOrderId, orderId),
    refunds: newest(state.ledger.refunds(), (refund) => refund.referenceOrderId, orderId),
    deliveries: newest(state.deliverer.deliveries(), (delivery) => delivery.payload.referenceOrderId, orderId).map(deliveryView),
    calls: callsShown(state.calls.list()),
  };
}
