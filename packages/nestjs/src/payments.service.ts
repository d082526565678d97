import { Inject, Injectable, Optional, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import {
  createPaymentRoutes,
  type AdapterOptionKinds,
  type CallOptions,
  type CancelCheckoutResult,
  type ExpireCheckoutSessionInput,
  type ExpiredCheckoutSession,
  type PaymentClient,
  type PaymentRoutes,
  type ReconcileOptions,
  type ReconcileSummary,
  type RefundInput,
  type RefundResult,
  type TransactionDetails,
  type TransactionLookup,
} from '@paymount/core';
import type { NestPlatformRequest } from './nest-platform';
import { PaymentWorkersHost } from './payment-workers';
import type { PaymentsModuleExtras, PaymentsModuleOptions } from './payments.options';
import { PAYMENTS_MODULE_OPTIONS, PAYMENTS_MODULE_SETTINGS } from './payments.tokens';

/** The module's own options beside the routes': its settings and the workers, checked with the routes' options. */
const NEST_OPTIONS = {
  mountPath: 'routerPath',
  isGlobal: 'boolean',
  controllerDecorators: 'classDecorators',
  workers: 'startWorkers',
} as const satisfies AdapterOptionKinds & Record<keyof PaymentsModuleExtras | 'workers', unknown>;

/**
 * The payment routes and client built from the module options, for
 * injection anywhere, and the workers of queued processing (the `workers`
 * option), run with the app's lifecycle.
 */
@Injectable()
export class PaymentsService implements OnApplicationBootstrap, OnModuleDestroy {
  readonly paymentRoutes: PaymentRoutes<NestPlatformRequest>;
  private readonly workers: PaymentWorkersHost;

  constructor(
    @Inject(PAYMENTS_MODULE_OPTIONS) options: PaymentsModuleOptions,
    // Set by the module; the settings are read when it is defined, and checked here with the routes' options, in one error.
    @Optional() @Inject(PAYMENTS_MODULE_SETTINGS) settings?: PaymentsModuleExtras,
  ) {
    this.paymentRoutes = createPaymentRoutes({ ...options, ...settings }, NEST_OPTIONS);
    this.workers = new PaymentWorkersHost(options.workers, options.webhook.processing);
  }

  /** The typed client, for calls of your own (e.g. a direct payment from a job). */
  get client(): PaymentClient {
    return this.paymentRoutes.client;
  }

  /** Refunds a payment in full (no `amount`) or in part: `client.refund`. */
  refund(input: RefundInput, callOptions?: CallOptions): Promise<RefundResult> {
    return this.client.refund(input, callOptions);
  }

  /** Looks a transaction up by `transactionId` or `transactionRequestId`: `client.getTransaction`. */
  getTransaction(lookup: TransactionLookup, callOptions?: CallOptions): Promise<TransactionDetails> {
    return this.client.getTransaction(lookup, callOptions);
  }

  /** Ends an open hosted checkout session, e.g. an order the shopper abandoned: `client.expireCheckoutSession`. */
  expireCheckoutSession(input: ExpireCheckoutSessionInput, callOptions?: CallOptions): Promise<ExpiredCheckoutSession> {
    return this.client.expireCheckoutSession(input, callOptions);
  }

  /**
   * Settles the payments no webhook settled (`paymentRoutes.reconcile`): each final
   * outcome reaches the `@OnPaymentEvent` methods once, whether the webhook,
   * this, or both bring it. Call it on a schedule, e.g. from an `@Interval`.
   */
  reconcile(options?: ReconcileOptions): Promise<ReconcileSummary> {
    return this.paymentRoutes.reconcile(options);
  }

  /**
   * Cancels an order's abandoned checkout (`paymentRoutes.cancelCheckout`): under
   * the order's lock its open hosted session is expired (the page then says
   * so) and the order can be checked out again; a paid one answers
   * `already-paid`. Takes the `referenceOrderId` your `resolveOrder` gives.
   */
  cancelCheckout(referenceOrderId: string): Promise<CancelCheckoutResult> {
    return this.paymentRoutes.cancelCheckout(referenceOrderId);
  }

  /** After every onModuleInit: the `@OnPaymentEvent` methods are subscribed before a worker takes a job. */
  onApplicationBootstrap(): void {
    this.workers.startOn(this.paymentRoutes);
  }

  async onModuleDestroy(): Promise<void> {
    // The workers first: their running jobs still use the routes' client and stores.
    await this.workers.close();
    await this.paymentRoutes.close();
  }
}
