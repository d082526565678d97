import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PaymentClient, PaymentRoutesOptions } from '@paymount/core';
import type { PostgresDatabase } from '@paymount/postgres';
import type { Sandbox } from '@paymount/sandbox';
import { CATALOG } from './catalog.js';
import type { ShopConfig } from './config.js';
import { Orders } from './orders.js';
import { MODULE_DIR } from './module-dir.js';
import { homePage, loginPage, messagePage, orderPage, type PageContext } from './pages.js';
import { notifyUrlOf, paymentOptions } from './payments.js';
import { StaffLogin } from './staff.js';

/** An answer in no framework's shape: each template's app sends it its own way. */
export interface ShopResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ShopSetup {
  config: ShopConfig;
  sandbox: Sandbox | undefined;
  db: PostgresDatabase;
  publicUrl: string;
}

const SHOP_NAME = 'Paymount shop';

/**
 * A file of the project, found from this module's folder up to the project's package.json: the shop
 * finds its files wherever it is started from (a service manager's or a container's working folder).
 */
function projectFile(path: string): string {
  let dir = MODULE_DIR;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, path);
}

/** The browser's files: the shop's script and stylesheet, and @paymount/browser's module as the package ships it. */
const ASSETS: Readonly<Record<string, { type: string; body: string }>> = {
  'shop.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(projectFile('public/shop.js'), 'utf8') },
  'shop.css': { type: 'text/css; charset=utf-8', body: readFileSync(projectFile('public/shop.css'), 'utf8') },
  'paymount-browser.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(createRequire(projectFile('package.json')).resolve('@paymount/browser'), 'utf8'),
  },
};

function redirect(location: string, headers: Record<string, string> = {}): ShopResponse {
  return { status: 303, headers: { location, ...headers }, body: '' };
}

/** The shop's pages and forms, framework-neutral: a template's app maps its routes onto these. */
export class Shop {
  readonly orders: Orders;
  /** paymount's route options: every adapter takes them as they are. */
  readonly payments: PaymentRoutesOptions;
  private readonly page: PageContext;
  private readonly staff: StaffLogin;
  private readonly headers: Record<string, string>;

  constructor(readonly setup: ShopSetup) {
    const { config, sandbox, db, publicUrl } = setup;
    this.orders = new Orders(db);
    this.payments = paymentOptions({ config, sandbox, db, publicUrl, shopName: SHOP_NAME });
    this.staff = new StaffLogin(config.staffPassword, publicUrl.startsWith('https:'));
    const wallet = sandbox ? { sandbox: sandbox.url } : { environment: config.walletEnvironment, scriptUrl: config.walletScriptUrl };
    this.page = { shopName: SHOP_NAME, wallet };
    const walletOrigin = new URL(sandbox ? sandbox.url : config.walletScriptUrl).origin;
    // Scripts only from the shop and the wallet: a page that handles a wallet token runs nothing else.
    this.headers = {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'self'; script-src 'self' ${walletOrigin}; connect-src 'self' ${walletOrigin}; frame-src ${walletOrigin}; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cache-control': 'no-store',
    };
  }

  home(): ShopResponse {
    return this.html(200, homePage(this.page));
  }

  /** `POST /orders`: the order and its price are made here, from the catalogue. */
  async placeOrder(form: Record<string, unknown>): Promise<ShopResponse> {
    const product = CATALOG.find((item) => item.sku === form['sku']);
    if (!product) return this.html(400, messagePage(this.page, 'Unknown product', 'That product is not for sale here.'));
    const order = await this.orders.create(product);
    return redirect(`/orders/${order.id}`);
  }

  async order(id: string, cookie: string | undefined): Promise<ShopResponse> {
    const order = await this.orders.find(id);
    if (!order) return this.html(404, messagePage(this.page, 'Order not found', 'There is no such order in this shop.'));
    return this.html(200, orderPage(this.page, order, this.staff.isStaff(cookie)));
  }

  loginForm(next: unknown): ShopResponse {
    return this.html(200, loginPage(this.page, localPath(next), false));
  }

  login(form: Record<string, unknown>): ShopResponse {
    const cookie = this.staff.signIn(form['password']);
    const next = localPath(form['next']);
    return cookie ? redirect(next, { 'set-cookie': cookie }) : this.html(401, loginPage(this.page, next, true));
  }

  /**
   * `POST /orders/:id/refund`, staff only: the whole payment, through the routes' client. The refund's
   * webhook marks the order refunded.
   */
  async refund(id: string, cookie: string | undefined, client: PaymentClient): Promise<ShopResponse> {
    if (!this.staff.isStaff(cookie)) return redirect(`/login?next=/orders/${encodeURIComponent(id)}`);
    const order = await this.orders.find(id);
    if (order?.status !== 'paid' || order.transactionId === null) {
      return this.html(409, messagePage(this.page, 'Nothing to refund', 'This order has no payment to refund.'));
    }
    await client.refund({ originalTransactionId: order.transactionId, notifyUrl: notifyUrlOf(this.setup.publicUrl) });
    return redirect(`/orders/${order.id}`);
  }

  asset(name: string): ShopResponse {
    const asset = ASSETS[name];
    if (!asset) return this.html(404, messagePage(this.page, 'Not found', 'There is nothing here.'));
    return { status: 200, headers: { 'content-type': asset.type, 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' }, body: asset.body };
  }

  private html(status: number, body: string): ShopResponse {
    return { status, headers: this.headers, body };
  }
}

/** Only a path on this shop: a `next` pointing elsewhere would make the login an open redirect. */
function localPath(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : '/';
}
