import type { z } from 'zod';
import type { CheckoutSessionRequest } from '../schemas/checkout-session';
import type { DirectPaymentRequest } from '../schemas/direct-payment';
import type { ResponseEnvelope } from '../schemas/envelope';
import type { terminalSaleRequestSchema } from '../schemas/terminal-sale';
import type { PaymentStatus } from '../transaction-status';

type Defaulted = 'appId' | 'merchantId' | 'transactionRequestId';

/** A request body whose appId, merchantId (client defaults) and transactionRequestId (generated) may be left out. */
export type WithClientDefaults<T extends Record<Defaulted, string>> = Omit<T, Defaulted> & Partial<Pick<T, Defaulted>>;

export type CheckoutSessionInput = WithClientDefaults<CheckoutSessionRequest>;
export type DirectPaymentInput = WithClientDefaults<Omit<DirectPaymentRequest, 'paymentMethod'>>;
export type TerminalSaleInput = WithClientDefaults<z.input<typeof terminalSaleRequestSchema>>;

export interface CallOptions {
  /** Aborts the call; the abort reason is rethrown. */
  signal?: AbortSignal;
  /** Per-attempt time-out for this call. */
  timeoutMs?: number;
  /** Deadline for the whole call, retries included. */
  deadlineMs?: number;
}

export interface CheckoutSession {
  checkoutUrl: string;
  expiresAt: Date;
  sessionId?: string;
  transactionRequestId: string;
  traceId: string;
  /** The response envelope as received. */
  raw: ResponseEnvelope;
}

export interface PaymentResult {
  /** `pending` when the service reported a non-final status, or when no definitive answer came back (`outcomeUnknown`). */
  status: PaymentStatus;
  transactionStatus?: string;
  transactionId?: string;
  transactionRequestId: string;
  traceId?: string;
  raw?: ResponseEnvelope;
  /** True when the request may have been processed but no answer arrived; the webhook settles it. */
  outcomeUnknown: boolean;
}

export type DirectPaymentResult = PaymentResult;
export type TerminalSaleResult = PaymentResult;

export interface PaymentClient {
  readonly appId: string;
  readonly merchantId: string;
  readonly baseUrl: string;
  createCheckoutSession(input: CheckoutSessionInput, callOptions?: CallOptions): Promise<CheckoutSession>;
  directPayment(input: DirectPaymentInput, callOptions?: CallOptions): Promise<DirectPaymentResult>;
  terminalSale(input: TerminalSaleInput, callOptions?: CallOptions): Promise<TerminalSaleResult>;
  /** Closes the client's connection pool (not a dispatcher passed in). Later calls are refused. */
  close(): Promise<void>;
}
