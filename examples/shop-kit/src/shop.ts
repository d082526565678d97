import { readFileSync } from 'node:fs';
import {
  createRedactingLogger,
  type Logger,
  type MerchantOrder,
  type PaymentEvent,
  type PaymentHandlersOptions,
} from '@paymount/core';
import type { Sandbox } from '@paymount/sandbox';
import { catalogFor, type Product } from './catalog';
import type { ShopConfig } from './config';
import { OrderStore, type Order } from './orders';
import { messagePage, orderPage, productPage, returnPage, type PageContext } from './pages';
import { paymentSettings } from './payment-settings';

/** Where every example mounts the payment routes. */
export const MOUNT_PATH = '/payments';

/** A framework-neutral answer; each shop turns it into its framework's response in one line. */
export interface ShopResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ShopSetup {
  /** Shown in the page header, e.g. "Express shop". */
  name: string;
  config: ShopConfig;
  /** Where the shop is reached, without a trailing slash. */
  publicUrl: string;
  sandbox: Sandbox | undefined;
  logger: Logger;
}

/** The route options every adapter takes, except the two a shop wires itself: `resolveOrder` and the event handlers. */
export type ShopPaymentOptions = Omit<PaymentHandlersOptions, 'resolveOrder' | 'on'>;

const ASSETS: Readonly<Record<string, { type: string; body: string }>> = {
  'shop.js': { type: 'text/javascript; charset=utf-8', body: readAsset('shop.js') },
  'shop.css': { type: 'text/css; charset=utf-8', body: readAsset('shop.css') },
};

function readAsset(name: string): string {
  return readFileSync(new URL(`../assets/${name}`, import.meta.url), 'utf8');
}

export class Shop {
  readonly orders = new OrderStore();
  readonly catalog: readonly Product[];
  readonly payments: ShopPaymentOptions;
  /** Redacts the API key (and any token-like field) from every line, the shop's own included. */
  readonly logger: Logger;
  private readonly page: PageContext;
  private readonly securityHeaders: Record<string, string>;

  constructor(readonly setup: ShopSetup) {
    const settings = paymentSettings(setup.config, setup.sandbox);
    const logger = createRedactingLogger(setup.logger);
    logger.redactor.addSecret(settings.client.apiKey);
    this.logger = logger;
    this.catalog = catalogFor(setup.sandbox !== undefined);
    this.page = {
      shopName: setup.name,
      mountPath: MOUNT_PATH,
      wallet: settings.walletScript,
      againstSandbox: setup.sandbox !== undefined,
    };
    this.payments = {
      client: { ...settings.client, logger },
      webhook: settings.webhook,
      notifyUrl: `${setup.publicUrl}${MOUNT_PATH}/webhook`,
      merchantReturnUrl: (order: MerchantOrder) =>
        `${setup.publicUrl}/return?orderId=${encodeURIComponent(order.referenceOrderId)}`,
      wallet: { gatewayId: settings.gatewayId, merchantName: setup.name },
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
   * whatever the browser sent. A paid order takes no payment again: the
   * payment routes answer it 409 ORDER_NOT_PAYABLE and send nothing.
   */
  async resolveOrder(orderId: string): Promise<MerchantOrder | undefined> {
    const order = this.orders.get(orderId);
    if (!order) return undefined;
    return {
      referenceOrderId: order.id,
      amount: { orderAmount: order.total, priceCurrency: order.currency },
      description: `${this.setup.name}: ${order.product.name}`,
      productList: [{ name: order.product.name, amount: order.product.unitPrice, num: 1 }],
      payable: order.status !== 'paid',
    };
  }

  /** The webhook's verdict on an order; the only place an order becomes paid or failed. */
  async recordPaymentEvent(event: PaymentEvent): Promise<void> {
    const order = event.referenceOrderId === undefined ? undefined : this.orders.get(event.referenceOrderId);
    const fields = { orderId: event.referenceOrderId, event: event.type, transactionId: event.transactionId };
    if (!order) {
      this.logger.warn(fields, 'payment event for an order this shop does not know; ignored');
      return;
    }
    switch (event.type) {
      case 'payment.succeeded':
        if (!this.amountMatches(order, event)) {
          this.logger.error(fields, 'payment succeeded for another amount than the order total; order left unpaid');
          return;
        }
        this.orders.settle(order.id, 'paid', 'Payment received. Thank you!');
        break;
      case 'payment.failed':
        this.orders.settle(order.id, 'failed', 'The payment was declined. You can try again.');
        break;
      case 'payment.closed':
        // Also sent for a session the order stopped using when it was paid by wallet: settle() never reopens a paid order.
        this.orders.settle(order.id, 'pending', 'Checkout was cancelled or expired; the order is not paid.');
        break;
      default:
        this.logger.info(fields, 'payment event with no effect on orders');
        return;
    }
    this.logger.info({ ...fields, status: this.orders.get(order.id)?.status }, 'order updated from a payment event');
  }

  private amountMatches(order: Order, event: PaymentEvent): boolean {
    const amount = event.amount;
    if (!amount) return true;
    const charged = (amount.orderAmount ?? 0) + (amount.taxAmount ?? 0) + (amount.surchargeAmount ?? 0);
    return charged === order.total && (amount.priceCurrency === undefined || amount.priceCurrency === order.currency);
  }

  home(): ShopResponse {
    return this.htmlPage(200, productPage(this.page, this.catalog));
  }

  placeOrder(sku: unknown): ShopResponse {
    const product = this.catalog.find((item) => item.sku === sku);
    if (!product) return this.htmlPage(400, messagePage(this.page, 'Unknown product', 'That product is not for sale here.'));
    const order = this.orders.create(product);
    this.logger.info({ orderId: order.id, sku: product.sku, total: order.total }, 'order placed');
    return { status: 303, headers: { location: `/orders/${order.id}`, 'cache-control': 'no-store' }, body: '' };
  }

  orderPage(orderId: string): ShopResponse {
    const order = this.orders.get(orderId);
    return order ? this.htmlPage(200, orderPage(this.page, order)) : this.orderNotFound();
  }

  /** What the order page polls: enough to tell that it is stale, nothing more. */
  orderStatus(orderId: string): ShopResponse {
    const order = this.orders.get(orderId);
    const body = order ? { status: order.status, version: order.version } : { error: { code: 'ORDER_NOT_FOUND', message: 'No such order.' } };
    return {
      status: order ? 200 : 404,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      body: JSON.stringify(body),
    };
  }

  /** The `merchantReturnUrl` page. What the service appends to the URL is not trusted: the webhook decides. */
  returnPage(orderId: unknown): ShopResponse {
    const order = typeof orderId === 'string' ? this.orders.get(orderId) : undefined;
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
