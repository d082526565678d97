import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  createRedactingLogger,
  paysOrder,
  type Logger,
  type MerchantOrder,
  type PaymentEvent,
  type PaymentEventContext,
  type PaymentRoutes,
  type PaymentRoutesOptions,
  type RefundFailedEvent,
  type RefundSucceededEvent,
} from '@paymount/core';
import { createPostgresStores, inTransaction, type PostgresDatabase, type PostgresQueryable } from '@paymount/postgres';
import type { Sandbox } from '@paymount/sandbox';
import { BackOffice, type BackOfficeShop } from './back-office';
import { catalogFor, type Product } from './catalog';
import type { ShopConfig } from './config';
import { OrderStore, type Order, type RefundOutcome } from './orders';
import { isPayable, messagePage, orderPage, productPage, returnPage, type Notice, type PageContext } from './pages';
import { paymentSettings } from './payment-settings';
import { redirect, type ShopResponse } from './responses';
import { isSameOriginPost, type RequestHeaders } from './same-origin';

export type { ShopResponse } from './responses';

/** Where every example mounts the payment routes. */
export const MOUNT_PATH = '/payments';

export interface ShopSetup {
  /** Shown in the page header, e.g. "Express shop". */
  name: string;
  config: ShopConfig;
  /** Where the shop is reached, without a trailing slash. */
  publicUrl: string;
  sandbox: Sandbox | undefined;
  logger: Logger;
  /** The shop's database, migrated (`migrateShopDatabase`): its orders and paymount's stores. */
  db: PostgresDatabase;
}

/** The route options every adapter takes, except the two a shop wires itself: `resolveOrder` and the event handlers. */
export type ShopPaymentOptions = Omit<PaymentRoutesOptions, 'resolveOrder' | 'on'>;

const ASSETS: Readonly<Record<string, { type: string; body: string }>> = {
  'shop.js': { type: 'text/javascript; charset=utf-8', body: readAsset('shop.js') },
  // The wallet button and the status follow shop.js imports: @paymount/browser's module as the package ships it.
  'paymount-browser.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(createRequire(import.meta.url).resolve('@paymount/browser'), 'utf8') },
  'shop.css': { type: 'text/css; charset=utf-8', body: readAsset('shop.css') },
};

function readAsset(name: string): string {
  return readFileSync(new URL(`../assets/${name}`, import.meta.url), 'utf8');
}

export class Shop implements BackOfficeShop {
  readonly orders: OrderStore;
  readonly catalog: readonly Product[];
  readonly payments: ShopPaymentOptions;
  /** Redacts the API key (and any token-like field) from every line, the shop's own included. */
  readonly logger: Logger;
  readonly notifyUrl: string;
  readonly origin: string;
  private readonly page: PageContext;
  private readonly securityHeaders: Record<string, string>;

  constructor(readonly setup: ShopSetup) {
    const settings = paymentSettings(setup.config, setup.sandbox);
    const logger = createRedactingLogger(setup.logger);
    this.orders = new OrderStore(setup.db);
    // The tables were made before the shop serves (migrateShopDatabase), not at the stores' first query.
    const stores = createPostgresStores(setup.db, { migrate: false, logger });
    logger.redactor.addSecret(settings.client.apiKey);
    this.logger = logger;
    this.catalog = catalogFor(setup.sandbox !== undefined);
    this.page = {
      shopName: setup.name,
      mountPath: MOUNT_PATH,
      wallet: settings.walletScript,
      againstSandbox: setup.sandbox !== undefined,
    };
    this.notifyUrl = `${setup.publicUrl}${MOUNT_PATH}/webhook`;
    this.origin = new URL(setup.publicUrl).origin;
    this.payments = {
      client: { ...settings.client, logger },
      webhook: settings.webhook,
      notifyUrl: this.notifyUrl,
      merchantReturnUrl: (order: MerchantOrder) =>
        `${setup.publicUrl}/return?orderId=${encodeURIComponent(order.referenceOrderId)}`,
      wallet: { gatewayId: settings.gatewayId, merchantName: setup.name },
      store: stores.idempotency,
      orders: { store: stores.orders },
      ...(settings.clock ? { clock: settings.clock } : {}),
      logger,
    };
    // Scripts only from the shop and the wallet's origin: a page that handles a wallet token runs nothing else.
    this.securityHeaders = {
      'content-security-policy': `script-src 'self' ${new URL(settings.walletScript.url).origin}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cache-control': 'no-store',
    };
  }

  get name(): string {
    return this.setup.name;
  }

  /**
   * The `resolveOrder` hook: the amount charged is the server-side order's,
   * whatever the browser sent. A paid (or refunded) order takes no payment
   * again: the payment routes answer it 409 ORDER_NOT_PAYABLE and send nothing.
   */
  async resolveOrder(orderId: string): Promise<MerchantOrder | undefined> {
    const order = await this.orders.get(orderId);
    if (!order) return undefined;
    return {
      referenceOrderId: order.id,
      amount: { orderAmount: order.total, priceCurrency: order.currency },
      description: `${this.setup.name}: ${order.product.name}`,
      productList: [{ name: order.product.name, amount: order.product.unitPrice, num: 1 }],
      payable: isPayable(order),
    };
  }

  /**
   * The handler of every payment event, for the adapters' `on: { '*': ... }`
   * (or a Nest `@OnPaymentEvent` method): it runs in the transaction in which
   * paymount marks the event handled, so the order's new state and that mark
   * commit together, or neither does and the event is delivered again.
   */
  readonly onPaymentEvent: (event: PaymentEvent, ctx: PaymentEventContext) => Promise<unknown> = inTransaction((event: PaymentEvent, { db }) =>
    this.recordPaymentEvent(event, db),
  );

  /**
   * The webhook's (or the reconciliation's) verdict on an order: the only
   * place an order becomes paid, failed or refunded. Every read and write goes
   * through `db`, the transaction the event is marked handled in.
   */
  async recordPaymentEvent(event: PaymentEvent, db: PostgresQueryable): Promise<void> {
    const orders = this.orders.within(db);
    const order = await orderOf(event, orders);
    const fields = { orderId: order?.id ?? event.referenceOrderId, event: event.type, transactionId: event.transactionId };
    if (!order) {
      this.logger.warn(fields, 'payment event for an order this shop does not know; ignored');
      return;
    }
    let updated: Order | undefined;
    switch (event.type) {
      case 'payment.succeeded':
        if (!paysOrder(event, { orderAmount: order.total, priceCurrency: order.currency })) {
          this.logger.error(
            { ...fields, attempt: event.attempt },
            'payment succeeded that does not pay this order (another amount or currency, or not made by these routes); order left unpaid: refund it',
          );
          return;
        }
        updated = await orders.settle(order.id, 'paid', 'Payment received. Thank you!', event.transactionId);
        break;
      case 'payment.failed':
        updated = await orders.settle(order.id, 'failed', 'The payment was declined. You can try again.');
        break;
      case 'payment.closed':
        // Also sent for a session the order stopped using when it was paid another way: settle() never reopens a paid order.
        updated = await orders.settle(order.id, 'pending', 'Checkout was cancelled or expired; the order is not paid.');
        break;
      case 'refund.succeeded':
      case 'refund.failed':
        updated = await orders.settleRefund(order.id, event.transactionRequestId, refundOutcome(event));
        break;
      default:
        this.logger.info(fields, 'payment event with no effect on orders');
        return;
    }
    this.logger.info({ ...fields, status: updated?.status }, 'order updated from a payment event');
  }

  /** The back office (refunds) working through the payment routes object the shop serves. */
  backOffice(paymentRoutes: PaymentRoutes): BackOffice {
    return new BackOffice(this, paymentRoutes);
  }

  home(): ShopResponse {
    return this.htmlPage(200, productPage(this.page, this.catalog));
  }

  async placeOrder(sku: unknown, headers: RequestHeaders): Promise<ShopResponse> {
    if (!isSameOriginPost(headers, this.origin)) return this.crossSiteRefusal();
    const product = this.catalog.find((item) => item.sku === sku);
    if (!product) return this.htmlPage(400, messagePage(this.page, 'Unknown product', 'That product is not for sale here.'));
    const order = await this.orders.create(product);
    this.logger.info({ orderId: order.id, sku: product.sku, total: order.total }, 'order placed');
    return redirect(`/orders/${order.id}`);
  }

  /** The order's page; `notice` and `status` tell the outcome of a back-office action on it. */
  async orderPage(orderId: string, notice?: Notice, status = 200): Promise<ShopResponse> {
    const order = await this.orders.get(orderId);
    return order ? this.htmlPage(status, orderPage(this.page, order, notice)) : this.orderNotFound();
  }

  /** The answer to a form posted from another site: nothing done. */
  crossSiteRefusal(): ShopResponse {
    this.logger.warn({}, 'form post from another site refused; nothing was done');
    return this.htmlPage(403, messagePage(this.page, 'Refused', 'This form must be sent from the shop’s own pages.'));
  }

  /** The `merchantReturnUrl` page. What the service appends to the URL is not trusted: the webhook decides. */
  async returnPage(orderId: unknown): Promise<ShopResponse> {
    const order = typeof orderId === 'string' ? await this.orders.get(orderId) : undefined;
    return order ? this.htmlPage(200, returnPage(this.page, order)) : this.orderNotFound();
  }

  asset(name: string): ShopResponse {
    const asset = ASSETS[name];
    if (!asset) return this.htmlPage(404, messagePage(this.page, 'Not found', 'There is nothing here.'));
    return { status: 200, headers: { 'content-type': asset.type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }, body: asset.body };
  }

  private orderNotFound(): ShopResponse {
    return this.htmlPage(404, messagePage(this.page, 'Order not found', 'There is no such order in this shop.'));
  }

  private htmlPage(status: number, body: string): ShopResponse {
    return { status, headers: { 'content-type': 'text/html; charset=utf-8', ...this.securityHeaders }, body };
  }
}

/** A refund event names its payment's order, or at least the payment (a refunded terminal sale has no order id). */
function orderOf(event: PaymentEvent, orders: OrderStore): Promise<Order | undefined> {
  if (event.referenceOrderId !== undefined) return orders.get(event.referenceOrderId);
  const payment = 'originalTransactionId' in event ? event.originalTransactionId : undefined;
  return payment === undefined ? Promise.resolve(undefined) : orders.findByPayment(payment);
}

/** A refund's outcome as its event reports it; the reason of a failure in the service's words. */
function refundOutcome(event: RefundSucceededEvent | RefundFailedEvent): RefundOutcome {
  const outcome: RefundOutcome = { state: event.type === 'refund.succeeded' ? 'succeeded' : 'failed', transactionId: event.transactionId };
  if (event.amount.totalAmount !== undefined) outcome.amount = event.amount.totalAmount;
  if (event.type === 'refund.failed') outcome.reason = [event.reason.code, event.reason.message].filter((part) => part !== '').join(': ');
  return outcome;
}
