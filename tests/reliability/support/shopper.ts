import type { Sandbox } from '@paymount/sandbox';
import type { Agent } from 'undici';
import { payHostedCheckout, postJson, send, type Answer } from './http';

/** What a route answered, with the parts these suites read. */
export interface ShopperAnswer {
  status: number;
  body: { status?: string; transactionRequestId?: string; checkoutUrl?: string; alreadyPaid?: boolean; error?: { code: string } };
  /** For a checkout whose page the shopper paid: the page's answer status. */
  pagePaid?: number;
}

const read = (answer: Answer): ShopperAnswer => ({ status: answer.status, body: (answer.json ?? {}) as ShopperAnswer['body'] });

/**
 * A shopper's browser against one merchant instance's routes: a wallet
 * payment with a fresh token, a checkout whose page it pays when it gets one,
 * and the order page polling GET /status. Amounts never come from here.
 */
export class Shopper {
  constructor(
    private readonly agent: Agent,
    private readonly sandbox: Sandbox,
  ) {}

  async wallet(routesUrl: string, orderId: string): Promise<ShopperAnswer> {
    return read(await postJson(this.agent, `${routesUrl}/wallet/pay`, { orderId, token: this.sandbox.mintWalletToken() }));
  }

  /** POST /checkout, then "Pay with test wallet" on the page it answered, if any and if `pay`. */
  async checkout(routesUrl: string, orderId: string, pay = true): Promise<ShopperAnswer> {
    const answer = read(await postJson(this.agent, `${routesUrl}/checkout`, { orderId }));
    const { checkoutUrl } = answer.body;
    if (!pay || answer.status !== 201 || checkoutUrl === undefined) return answer;
    return { ...answer, pagePaid: (await this.payPage(checkoutUrl)).status };
  }

  /** "Pay with test wallet" on a hosted checkout page. */
  payPage(checkoutUrl: string): Promise<Answer> {
    return payHostedCheckout(this.agent, checkoutUrl);
  }

  async status(routesUrl: string, orderId: string): Promise<ShopperAnswer> {
    return read(await send(this.agent, `${routesUrl}/status?orderId=${encodeURIComponent(orderId)}`));
  }
}
