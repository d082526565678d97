// The handler registry and the queued-processing contract.
import { PaymentValidationError, type ValidationIssue } from '../shared/errors';
import { unknownNameMessage } from '../shared/validation';
import { PAYMENT_EVENT_TYPES, type PaymentEvent, type PaymentEventMap, type PaymentEventType } from './event';

/** How one arrival of an event went. */
export type EventHandling =
  | { outcome: 'handled'; handlers: number }
  /** Its handlers already ran to success: nothing ran, nothing was written. */
  | { outcome: 'duplicate' }
  /** Another arrival of it is being handled right now: nothing ran; should that one fail, a later arrival runs it. */
  | { outcome: 'in-progress' }
  /** A handler threw: the claim is released, so a later arrival runs it. */
  | { outcome: 'failed'; error: unknown };

/** An event handed to queued processing, named by its dedupe key. */
export interface QueuedEvent {
  /** The event's dedupe key (`dedupeKeyOf`): a queue keeps at most one job per key. */
  key: string;
  event: PaymentEvent;
  /**
   * The routes' seal of `key` and `event` (an HMAC under a key derived from the
   * webhook secret): a worker runs the handlers only for a job whose seal it
   * can check again, so a job written straight into the queue runs nothing.
   */
  mac: string;
  /** The W3C `traceparent` of the span that queued it, when traced: the run on a worker continues that trace. */
  traceparent?: string;
}

/** One run of a queued event on a worker, as the queue counts it. */
export interface QueuedRun {
  /**
   * 1 for the first run, 2 for the next, and so on: a retry after a failure,
   * or a run that takes the event over from a worker that died (a run after
   * the first is counted as a retry).
   */
  attempt: number;
  /** No retry follows a failure of this run: the event then goes to the queue's dead-letter state. */
  lastAttempt: boolean;
}

/**
 * What became of a queued event's run: as for a delivery (EventHandling), or
 * `refused`, a job whose seal does not verify (not queued by these routes, or
 * queued under other webhook secrets): nothing ran, nothing was read, and a
 * retry cannot change that.
 */
export type QueuedEventHandling = EventHandling | { outcome: 'refused' };

/**
 * Where the webhook route and reconciliation hand a verified event whose
 * handlers have not run to success, instead of running them inside the
 * request (inline, the default). The queue's workers run each event through
 * `paymentRoutes.processEvent`, with the same handlers, dedupe and order
 * settlement as inline processing. `@paymount/bullmq`'s `createWebhookQueue`
 * is one.
 */
export interface EventProcessing {
  /**
   * Takes the event durably, once per key: an event whose job is still kept
   * is not queued again. Resolves once it is accepted (the route then answers
   * 200); a rejection is answered 503, so the service retries.
   */
  enqueue(queued: QueuedEvent): Promise<void>;
  /** Events waiting, delayed or running: read for the queue-depth metric, when given. */
  depth?(): Promise<number>;
  /**
   * The command that sends a dead-lettered event back to the workers, as the
   * dead-letter log line prints it for the merchant to copy (the queue's
   * connection and name, never a password). Left out, the line says where to look.
   */
  retryCommand?(queued: QueuedEvent): string;
}

export type PaymentEventName = PaymentEventType | '*';

/** The event a subscription to `N` receives: that name's own event, every event for '*', either event of a union of names. */
export type PaymentEventOf<N extends PaymentEventName> = N extends PaymentEventType ? PaymentEventMap[N] : PaymentEvent;

/**
 * What a handler gets besides the event. `TContext` is the adapter's request
 * type (Express `Request`, Koa `Context`, ...).
 */
export interface PaymentEventContext<TContext = unknown> {
  /** The framework's request object of the delivery; undefined for an event `paymentRoutes.reconcile()` found. */
  context: TContext | undefined;
  /**
   * The transaction in which the event is marked handled, when the `store`
   * offers one (IdempotencyStore.runHandled, e.g. @paymount/postgres): writes
   * made through it commit or roll back with that mark, so they happen
   * exactly once. Undefined with other stores.
   */
  db?: unknown;
}

/** A handler of the events named `N` (every event by default). */
export type PaymentEventHandler<N extends PaymentEventName = PaymentEventName, TContext = unknown> = (
  event: PaymentEventOf<N>,
  ctx: PaymentEventContext<TContext>,
) => unknown;

/** The `on` option: a handler per event name, each typed for its own event. */
export type PaymentEventSubscriptions<TContext = unknown> = {
  [N in PaymentEventName]?: PaymentEventHandler<N, TContext>;
};

/** The names a handler can subscribe to: every event type, and '*' for all. */
export const EVENT_NAMES: readonly string[] = [...PAYMENT_EVENT_TYPES, '*'];

/** The issue of a name that is no event's, at `path`: the closest event and the known ones. */
export function unknownEventIssue(name: string, path: string): ValidationIssue {
  return { path, rule: 'one_of', message: unknownNameMessage(name, EVENT_NAMES, 'an event', true) };
}

/** Refuses a misspelt event name at subscription time rather than never calling its handler. */
export function assertEventName(name: string): asserts name is PaymentEventName {
  if (!EVENT_NAMES.includes(name)) throw new PaymentValidationError('event subscription', [unknownEventIssue(name, 'eventName')]);
}

/**
 * The merchant's event subscriptions. Handlers of the event's own name run
 * first, then catch-all ones, each in subscription order and one at a time, so
 * a handler sees the effects of the ones before it. The first failure stops
 * the delivery, which is then retried by the service.
 */
export class PaymentEventRegistry<TContext = unknown> {
  private readonly handlers = new Map<PaymentEventName, Array<PaymentEventHandler<PaymentEventName, TContext>>>();

  on<N extends PaymentEventName>(name: N, handler: PaymentEventHandler<N, TContext>): () => void {
    // Checked at run time too: JavaScript callers, and names read from configuration.
    assertEventName(name);
    if (typeof handler !== 'function') {
      throw new PaymentValidationError('event subscription', [{ path: 'handler', rule: 'type', message: 'must be a function' }]);
    }
    // dispatch() hands a handler only events of the name it subscribed to.
    const stored = handler as PaymentEventHandler<PaymentEventName, TContext>;
    const list = this.handlers.get(name) ?? [];
    list.push(stored);
    this.handlers.set(name, list);
    return () => {
      const current = this.handlers.get(name);
      const index = current?.indexOf(stored) ?? -1;
      if (current && index >= 0) current.splice(index, 1);
    };
  }

  async dispatch(event: PaymentEvent, ctx: PaymentEventContext<TContext>): Promise<number> {
    // A snapshot, so a handler that subscribes or unsubscribes does not change this delivery.
    const targets = [...(this.handlers.get(event.type) ?? []), ...(this.handlers.get('*') ?? [])];
    for (const handler of targets) await handler(event, ctx);
    return targets.length;
  }
}
