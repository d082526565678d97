import type { CancelCheckoutResult } from '../types/cancel-checkout';
import type { ReconcileOptions, ReconcileSummary } from '../types/reconcile';
import type { PaymentEventHandler, PaymentEventName } from '../webhooks/event-handlers';
import type { QueuedEvent, QueuedEventHandling, QueuedRun } from '../webhooks/event-processing';
import type { PaymentClient } from '../client/types';
import type { MerchantOrder } from '../merchant-order';
import type { NeutralRequest, NeutralResponse } from './neutral-http';

export type { MerchantOrder };

export type PaymentRouteName = 'checkout' | 'wallet-config' | 'wallet-pay' | 'status';

/** `TContext`: the framework's request type, which each adapter fills in (Express `Request`, Koa `Context`, ...). */
export interface OrderLookupContext<TContext = unknown> {
  route: PaymentRouteName;
  request: NeutralRequest;
  /** The framework's request object (Express req, Koa ctx, the Node request…), e.g. for the session user. */
  context: TContext;
}

/** Resolves to null or undefined when the order does not exist (answered 404). */
export type ResolveOrder<TContext = unknown> = (
  orderId: string,
  ctx: OrderLookupContext<TContext>,
) => Promise<MerchantOrder | null | undefined> | MerchantOrder | null | undefined;

export type {
  OrderGuardOptions,
  PaymentRoutesOptions,
  WalletRouteOptions,
  WebhookRouteOptions,
  WebhookRouteSettings,
} from '../types/route-options';

export interface PaymentRoutes<TContext = unknown> {
  /** Serves a paymount route, or resolves undefined for any other path (the adapter passes the request on). */
  handle(req: NeutralRequest): Promise<NeutralResponse | undefined>;
  /** Subscribes a handler to the events named `name` ('*': all); the handler receives that name's event type. Returns the unsubscribe. */
  on<N extends PaymentEventName>(name: N, handler: PaymentEventHandler<N, TContext>): () => void;
  /**
   * Asks the service about every payment attempt a webhook has not settled
   * (pending, an open session, an outcome not yet handled) and hands each
   * final outcome to the event handlers, once per event whether the webhook,
   * this, or both bring it. Run it on a schedule; rejects only when the order
   * attempt store cannot be read.
   */
  reconcile(options?: ReconcileOptions): Promise<ReconcileSummary>;
  /**
   * Asks the service about each refund named (the `transactionRequestId` your
   * app gave `client.refund()`) and hands each final outcome to the event
   * handlers, once per event whether its webhook, this, or both bring it;
   * queued with queued processing. The routes keep no record of refunds, so
   * this is how a refund event lost on the way (a queue's Redis that lost its
   * data, a handler that never saw it) is recovered: name the refunds issued
   * since. A refund the service does not know, or an id that is not a
   * refund's, is counted in `errors` and logged.
   */
  reconcileRefunds(transactionRequestIds: readonly string[]): Promise<ReconcileSummary>;
  /**
   * Cancels the order's abandoned checkout: under the order's lock, expires
   * its open hosted session with the service (the page then says it expired)
   * and records it closed, so the order can be checked out again. A session
   * already paid answers `already-paid`; an order with no open session,
   * `no-open-checkout`. `referenceOrderId` is the one `resolveOrder` gives.
   */
  cancelCheckout(referenceOrderId: string): Promise<CancelCheckoutResult>;
  /**
   * Runs a queued event's handlers, as an inline delivery would: at most once
   * to success per event (the dedupe store's claim, renewed while they run,
   * then its completion), the order's attempt settled after. What a queue's
   * worker calls for each job (`webhook.processing`); `handled` and
   * `duplicate` end the job, `in-progress` means another run holds the event
   * (try later), `failed` means retry it (its error has the secrets cut
   * out, so the queue may keep it), `refused` means a job whose seal does not
   * verify: nothing ran, fail it for good.
   */
  processEvent(queued: QueuedEvent, run: QueuedRun): Promise<QueuedEventHandling>;
  /**
   * Reports a queued event the queue failed for good without a run of it
   * failing (on BullMQ: its runs lost their worker more often than
   * `maxStalledCount` allows): logged as an error naming the event, `cause`
   * and how to retry it, and counted in `paymount.webhook.dead_letters`. A run
   * that fails on its last attempt is reported by `processEvent` itself.
   */
  reportDeadLetter(queued: QueuedEvent, cause: unknown): void;
  readonly client: PaymentClient;
  /** The routes' paths below the mount point ('/checkout', ...), for routers that register each path. */
  readonly routePaths: readonly string[];
  /** The largest body any route accepts: the limit an adapter reads request bodies with. */
  readonly bodyLimitBytes: number;
  close(): Promise<void>;
}
