/**
 * What `ExecutionContext.getType()` answers in an interceptor or exception
 * filter around an `@OnPaymentEvent` method, whose arguments are the event and
 * `{ context }` rather than a request and a response.
 */
export const PAYMENT_EVENT_CONTEXT_TYPE = 'payment-event';
export type PaymentEventContextType = typeof PAYMENT_EVENT_CONTEXT_TYPE;
