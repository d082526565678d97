import {
  generateTransactionRequestId,
  PaymentApiError,
  PaymentError,
  PaymentValidationError,
  type CancelCheckoutResult,
  type Logger,
  type PaymentRoutes,
} from '@paymount/core';
import { awaitingRefunds, type OrderStore } from './orders';
import type { Notice } from './pages';
import { refundAmountFrom } from './refund-amount';
import { jsonResponse, redirect, type ShopResponse } from './responses';
import { isSameOriginPost, type RequestHeaders } from './same-origin';

/** What the back office needs of its shop. */
export interface BackOfficeShop {
  readonly orders: OrderStore;
  readonly logger: Logger;
  /** Where refund webhooks go: the shop's mounted webhook route. */
  readonly notifyUrl: string;
  /** The origin the shop's pages are served from: its forms must be posted from it. */
  readonly origin: string;
  /** The order's page, with the outcome of an action on it; the shop's 404 page for an unknown order. */
  orderPage(orderId: string, notice?: Notice, status?: number): Promise<ShopResponse>;
  crossSiteRefusal(): ShopResponse;
}

const CANCEL_NOTICES: Readonly<Record<CancelCheckoutResult['outcome'], Notice>> = {
  cancelled: { kind: 'done', text: 'The open checkout was cancelled: its page now says it expired. The order can be checked out again.' },
  'already-paid': { kind: 'error', text: 'The order is already paid: refund it instead.' },
  'no-open-checkout': { kind: 'done', text: 'There was no open checkout to cancel.' },
  'may-be-open': {
    kind: 'error',
    text: 'A checkout whose answer was lost may still be open and cannot be named to the service: it ends unpaid within 30 minutes.',
  },
};

function problems(error: PaymentValidationError): string {
  return error.issues.map((issue) => issue.message).join('; ');
}

/**
 * What the merchant's staff does with an order, through the payment
 * routes object: cancel its abandoned checkout, refund it (the refund webhook
 * settles a refund on the order). Every action is a same-origin form post
 * answered with a page.
 */
export class BackOffice {
  constructor(
    private readonly shop: BackOfficeShop,
    private readonly paymentRoutes: PaymentRoutes,
  ) {}

  /**
   * POST /orders/:id/refund: `scope=full`, or `scope=partial` with `amount`
   * in major units. The amount is checked against what remains refundable
   * before anything is sent; the refund is recorded as requested under its
   * own transactionRequestId, which its webhook carries back.
   */
  async refund(orderId: string, form: unknown, headers: RequestHeaders): Promise<ShopResponse> {
    if (!isSameOriginPost(headers, this.shop.origin)) return this.shop.crossSiteRefusal();
    const order = await this.shop.orders.get(orderId);
    const originalTransactionId = order?.paymentTransactionId;
    if (order === undefined || originalTransactionId === undefined) {
      return this.shop.orderPage(orderId, { kind: 'error', text: 'Only a paid order can be refunded.' }, 409);
    }
    let request;
    try {
      request = refundAmountFrom(form, order);
    } catch (error) {
      if (!(error instanceof PaymentValidationError)) throw error;
      return this.shop.orderPage(orderId, { kind: 'error', text: `No refund sent: the amount ${problems(error)}.` }, 400);
    }
    const requestId = generateTransactionRequestId();
    const fields = { orderId, refundRequestId: requestId, scope: request.scope, amount: request.amount };
    await this.shop.orders.requestRefund(order.id, requestId, request.amount);
    try {
      const result = await this.paymentRoutes.client.refund({
        originalTransactionId,
        transactionRequestId: requestId,
        // Without an amount the service refunds whatever remains of the payment.
        ...(request.scope === 'partial' ? { amount: { orderAmount: request.amount, priceCurrency: order.currency } } : {}),
        description: `Refund of order ${order.id}`,
        notifyUrl: this.shop.notifyUrl,
      });
      this.shop.logger.info({ ...fields, status: result.status }, 'refund sent; its webhook settles the order');
    } catch (error) {
      if (!(error instanceof PaymentApiError || error instanceof PaymentValidationError)) {
        // It may have reached the service: the refund stays requested until its webhook says.
        this.shop.logger.error({ ...fields, err: error }, 'refund call failed without an answer; its webhook settles it if the service received it');
      } else {
        const serviceCode = error instanceof PaymentApiError ? { serviceCode: error.serviceCode } : {};
        this.shop.logger.warn({ ...fields, code: error.code, ...serviceCode }, 'refund refused; nothing was refunded');
        await this.shop.orders.settleRefund(order.id, requestId, { state: 'failed', reason: `refused: ${error.message}` });
      }
    }
    return redirect(`/orders/${order.id}`);
  }

  /**
   * POST /orders/:id/cancel-checkout: ends the order's open hosted session
   * (`paymentRoutes.cancelCheckout`, under the order's lock). Answered with the
   * order page saying what happened; the session's `payment.closed` webhook
   * follows as for any expiry.
   */
  async cancelCheckout(orderId: string, headers: RequestHeaders): Promise<ShopResponse> {
    if (!isSameOriginPost(headers, this.shop.origin)) return this.shop.crossSiteRefusal();
    const order = await this.shop.orders.get(orderId);
    if (order === undefined) return this.shop.orderPage(orderId);
    try {
      const { outcome } = await this.paymentRoutes.cancelCheckout(order.id);
      this.shop.logger.info({ orderId, outcome }, 'checkout cancellation');
      return this.shop.orderPage(orderId, CANCEL_NOTICES[outcome]);
    } catch (error) {
      // A payment request holding the order, the service refusing or unreachable: nothing changed.
      this.shop.logger.warn({ orderId, err: error }, 'checkout not cancelled');
      const known = error instanceof PaymentError;
      const reason = known ? error.message : 'the payment service could not be asked.';
      return this.shop.orderPage(orderId, { kind: 'error', text: `The checkout was not cancelled: ${reason}` }, known ? (error.httpStatus ?? 502) : 502);
    }
  }

  /** GET /orders/:id/refunds: how many refunds still await their webhook, which the order page follows. */
  async refunds(orderId: string): Promise<ShopResponse> {
    const order = await this.shop.orders.get(orderId);
    if (order === undefined) return jsonResponse(404, { error: { code: 'ORDER_NOT_FOUND', message: 'No such order.' } });
    return jsonResponse(200, { status: order.status, awaiting: awaitingRefunds(order) });
  }
}
