import { PaymentValidationError } from '../errors';
import { PAYMENT_EVENT_TYPES, type PaymentEvent, type PaymentEventType } from './event';

export type PaymentEventName = PaymentEventType | '*';

export interface PaymentEventContext {
  /** The framework's request object of the delivery. */
  context: unknown;
}

export type PaymentEventHandler = (event: PaymentEvent, ctx: PaymentEventContext) => unknown;

const EVENT_NAMES: readonly string[] = [...PAYMENT_EVENT_TYPES, '*'];

/** Refuses a misspelt event name at subscription time rather than never calling its handler. */
export function assertEventName(name: string): asserts name is PaymentEventName {
  if (!EVENT_NAMES.includes(name)) {
    throw new PaymentValidationError('event subscription', [
      { path: 'eventName', rule: 'one_of', message: `must be one of ${EVENT_NAMES.join(', ')}` },
    ]);
  }
}

/**
 * The merchant's event subscriptions. Handlers of the event's own name run
 * first, then catch-all ones, each in subscription order and one at a time, so
 * a handler sees the effects of the ones before it. The first failure stops
 * the delivery, which is then retried by the service.
 */
export class PaymentEventHandlers {
  private readonly handlers = new Map<PaymentEventName, PaymentEventHandler[]>();

  on(name: string, handler: PaymentEventHandler): () => void {
    assertEventName(name);
    if (typeof handler !== 'function') {
      throw new PaymentValidationError('event subscription', [{ path: 'handler', rule: 'type', message: 'must be a function' }]);
    }
    const list = this.handlers.get(name) ?? [];
    list.push(handler);
    this.handlers.set(name, list);
    return () => {
      const current = this.handlers.get(name);
      const index = current?.indexOf(handler) ?? -1;
      if (current && index >= 0) current.splice(index, 1);
    };
  }

  async dispatch(event: PaymentEvent, ctx: PaymentEventContext): Promise<number> {
    // A snapshot, so a handler that subscribes or unsubscribes does not change this delivery.
    const targets = [...(this.handlers.get(event.type) ?? []), ...(this.handlers.get('*') ?? [])];
    for (const handler of targets) await handler(event, ctx);
    return targets.length;
  }
}
