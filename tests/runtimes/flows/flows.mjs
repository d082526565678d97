// @ts-check
// The merchant's flows, as one runtime runs them: @paymount/core imported by its
// package name (so the runtime's export conditions pick the build), the payment
// routes served by the runtime's own server, the sandbox on Node as the service.
// Every step reports what happened, an error included, so one run shows each
// failure of a runtime at once; the test on Node judges it against the sandbox.

/** @typedef {import('./types').FlowConfig} FlowConfig */
/** @typedef {import('./types').FlowResult} FlowResult */
/** @typedef {import('./types').Serve} Serve */
/** @typedef {import('./types').StepReport} StepReport */

const WEBHOOK_WAIT_MS = 15_000;

/**
 * @param {FlowConfig} config
 * @param {Serve} serve serves a fetch handler on 127.0.0.1 and says where
 * @returns {Promise<FlowResult>}
 */
export async function runFlows(config, serve) {
  /** @type {FlowResult} */
  const result = {};
  /** @type {typeof import('@paymount/core')} */
  let core;
  try {
    core = await import('@paymount/core');
  } catch (error) {
    result.load = failed(error);
    return result;
  }
  result.load = { ok: true };

  const { service, orders } = config;
  const clientOptions = clientOptionsOf(service);
  /** @type {Map<string, { referenceOrderId: string; amount: { orderAmount: number; priceCurrency: string }; description: string }>} */
  const shop = new Map([
    [orders.checkout, { referenceOrderId: orders.checkout, amount: { orderAmount: 2500, priceCurrency: 'USD' }, description: 'Two mugs' }],
    [orders.wallet, { referenceOrderId: orders.wallet, amount: { orderAmount: 1999, priceCurrency: 'USD' }, description: 'A teapot' }],
  ]);
  /** @type {{ type: string; referenceOrderId?: string | undefined; transactionId?: string | undefined }[]} */
  const events = [];
  /** @type {{ body: string; headers: Record<string, string> }[]} */
  const deliveries = [];
  let selfUrl = '';
  /** @type {string[]} */
  const log = [];
  result.log = log;
  /** @param {string} level */
  const logTo = (level) => /** @type {(objOrMsg: unknown, msg?: string) => void} */ ((objOrMsg, msg) => void log.push(`${level} ${msg ?? ''} ${JSON.stringify(objOrMsg)}`));

  /** @type {import('@paymount/core').FetchHandler} */
  let payments;
  /** @type {{ url: string; close(): Promise<void> }} */
  let server;
  try {
    payments = core.createFetchHandler(
      {
        client: clientOptions,
        resolveOrder: (orderId) => shop.get(orderId) ?? null,
        notifyUrl: () => `${selfUrl}/payments/webhook`,
        merchantReturnUrl: 'http://127.0.0.1/shop/thanks',
        wallet: { gatewayId: service.gatewayId, merchantName: 'Runtime Shop' },
        webhook: { secret: service.webhookSecret },
        // What the routes log (warnings and failures, redacted by paymount) goes into the report.
        logger: { debug: () => {}, info: () => {}, warn: logTo('warn'), error: logTo('error') },
        on: {
          '*': (event) => {
            events.push({ type: event.type, referenceOrderId: event.referenceOrderId, transactionId: event.transactionId });
          },
        },
      },
      { mountPath: '/payments' },
    );
    server = await serve(async (request) => {
      if (new URL(request.url).pathname === '/payments/webhook' && request.method === 'POST') {
        const copy = request.clone();
        deliveries.push({ body: await copy.text(), headers: Object.fromEntries(copy.headers) });
      }
      return payments(request);
    });
    selfUrl = server.url;
  } catch (error) {
    result.serve = failed(error);
    return result;
  }
  result.serve = { ok: true };

  try {
    result.checkout = await step(async () => {
      const answer = await postJson(`${selfUrl}/payments/checkout`, { orderId: orders.checkout });
      const body = /** @type {{ checkoutUrl?: string }} */ (answer.body);
      if (answer.status !== 201 || body.checkoutUrl === undefined) return { status: answer.status, body };
      // The shopper pays on the hosted page; the service then sends its webhook to these routes.
      const page = await fetch(`${body.checkoutUrl}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'testCard=approve',
        redirect: 'manual',
      });
      await page.body?.cancel();
      const event = await waitFor(() => events.find((e) => e.referenceOrderId === orders.checkout));
      return { status: answer.status, pageStatus: page.status, event };
    });

    result.wallet = await step(async () => {
      const answer = await postJson(`${selfUrl}/payments/wallet/pay`, { orderId: orders.wallet, token: config.walletTokens.wallet });
      return { status: answer.status, body: answer.body };
    });

    const client = payments.paymentRoutes.client;
    const paymentId = /** @type {{ transactionId?: string }} */ (result.wallet.body ?? {}).transactionId;
    result.refund = await step(async () => {
      if (paymentId === undefined) throw new Error('no wallet payment to refund');
      const refund = await client.refund({ originalTransactionId: paymentId, amount: { priceCurrency: 'USD', orderAmount: config.refundCents } });
      // An outcome in doubt carries no ids: its status says so.
      return 'transactionId' in refund
        ? { status: refund.status, transactionId: refund.transactionId, originalTransactionId: refund.originalTransactionId }
        : { status: refund.status };
    });

    result.query = await step(async () => {
      if (paymentId === undefined) throw new Error('no wallet payment to look up');
      const payment = await client.getTransaction({ transactionId: paymentId });
      const refundId = /** @type {{ transactionId?: string }} */ (result.refund ?? {}).transactionId;
      const refund = refundId === undefined ? undefined : await client.getTransaction({ transactionId: refundId });
      return {
        payment: { status: payment.status, transactionId: payment.transactionId, referenceOrderId: payment.referenceOrderId },
        refund: refund && { status: refund.status, transactionId: refund.transactionId },
      };
    });

    result.verify = await step(async () => {
      const genuine = deliveries.find((d) => d.body.includes(orders.checkout));
      if (genuine === undefined) throw new Error(`no delivery for ${orders.checkout} reached the routes`);
      const event = await core.verifyWebhook({ secret: service.webhookSecret, rawBody: genuine.body, headers: genuine.headers });
      const forged = JSON.stringify({ ...JSON.parse(genuine.body), referenceOrderId: 'someone-elses-order' });
      const signed = {
        'content-type': 'application/json',
        'x-signature': genuine.headers['x-signature'] ?? '',
        'x-timestamp': genuine.headers['x-timestamp'] ?? '',
        'x-client-request-id': genuine.headers['x-client-request-id'] ?? '',
      };
      const forgedVerified = await core.verifyWebhook({ secret: service.webhookSecret, rawBody: forged, headers: signed }).then(
        () => ({ ok: true }),
        (error) => failed(error),
      );
      const routeAnswer = await fetch(`${selfUrl}/payments/webhook`, { method: 'POST', headers: signed, body: forged });
      // The same two deliveries through the entry a Worker that only verifies webhooks imports.
      const webhooks = await import('@paymount/core/webhooks');
      const entryEvent = await webhooks.verifyWebhook({ secret: service.webhookSecret, rawBody: genuine.body, headers: genuine.headers });
      const entryForged = await webhooks.verifyWebhook({ secret: service.webhookSecret, rawBody: forged, headers: signed }).then(
        () => ({ ok: true }),
        (error) => ({ ...failed(error), rootClass: error instanceof core.WebhookVerificationError }),
      );
      return {
        event: { type: event.type, referenceOrderId: event.referenceOrderId, transactionId: event.transactionId },
        forged: forgedVerified,
        forgedRoute: { status: routeAnswer.status, body: await routeAnswer.json() },
        entry: {
          event: { type: entryEvent.type, referenceOrderId: entryEvent.referenceOrderId, transactionId: entryEvent.transactionId },
          forged: entryForged,
        },
      };
    });

    result.unsent = await step(() => unsentPayment(core, clientOptions, config.orders.unsent, config.walletTokens.unsent));
    result.refused = await step(() => payOnce(core.createPaymentClient({ ...clientOptions, baseUrl: config.refusedBaseUrl }), orders.refused, config.walletTokens.refused));
    if (config.deniedBaseUrl !== undefined) {
      const denied = { ...clientOptions, baseUrl: config.deniedBaseUrl };
      result.denied = await step(() => payOnce(core.createPaymentClient(denied), orders.denied, config.walletTokens.denied));
    }

    result.currency = await step(() => currencyChecks(core, clientOptions, orders.currency, config.walletTokens.currency));
    result.ownFetch = await step(() => ownFetchPayment(core, clientOptions, orders.ownFetch, config.walletTokens.ownFetch));
  } finally {
    result.close = await step(async () => {
      await server.close();
      await payments.paymentRoutes.close();
      return {};
    });
  }
  return result;
}

/**
 * The client options a merchant would give for the sandbox, with short limits
 * so that a runtime whose requests hang fails its step instead of the whole run.
 * @param {FlowConfig['service']} service
 */
export function clientOptionsOf(service) {
  return {
    apiKey: service.apiKey,
    baseUrl: service.baseUrl,
    appId: service.appId,
    merchantId: service.merchantId,
    localDevelopment: true,
    timeoutMs: 5_000,
    deadlineMs: 10_000,
  };
}

/**
 * The same direct payment in currencies no runtime may accept (gold, the
 * no-currency code, a withdrawn one), and the exponents of the shipped table:
 * every runtime must answer exactly what Node answers.
 * @param {typeof import('@paymount/core')} core
 * @param {import('@paymount/core').PaymentClientOptions} clientOptions
 * @param {string} referenceOrderId
 * @param {string} token
 */
export async function currencyChecks(core, clientOptions, referenceOrderId, token) {
  const client = core.createPaymentClient(clientOptions);
  /** @type {Record<string, StepReport>} */
  const refused = {};
  try {
    for (const priceCurrency of ['XAU', 'XXX', 'DEM']) {
      refused[priceCurrency] = await client
        .directPayment({ referenceOrderId, description: 'Gold', amount: { orderAmount: 100, priceCurrency }, cardEncryptedData: token })
        .then((answer) => ({ ok: true, status: answer.status }), failed);
    }
  } finally {
    await client.close();
  }
  return {
    refused,
    exponents: Object.fromEntries(['JPY', 'USD', 'KWD', 'BHD', 'CLF', 'IDR'].map((code) => [code, core.currencyExponent(code)])),
  };
}

/**
 * A direct payment whose first attempt cannot be sent: the transport throws a
 * TypeError before any byte leaves, as Bun's built-in undici did (no
 * `Agent.prototype.dispatch`). Later attempts would reach the service through
 * fetch, so a retry would charge: the call must fail at once, not be `pending`.
 * @param {typeof import('@paymount/core')} core
 * @param {Record<string, unknown> & { baseUrl: string }} clientOptions
 * @param {string} referenceOrderId
 * @param {string} token
 */
async function unsentPayment(core, clientOptions, referenceOrderId, token) {
  let sends = 0;
  const transport = {
    /** @type {(method: string, path: string, headers: Record<string, string>, body: string | undefined, options: { signal?: AbortSignal | undefined }) => Promise<{ status: number; headers: Record<string, string>; body: string }>} */
    send(method, path, headers, body, options) {
      sends += 1;
      if (sends === 1) throw new TypeError("Cannot read properties of undefined (reading 'dispatch')");
      return fetch(clientOptions.baseUrl + path, { method, headers, body, signal: options.signal, redirect: 'manual' }).then(async (response) => ({
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: await response.text(),
      }));
    },
    async close() {},
  };
  const report = await payOnce(core.createPaymentClient(/** @type {any} */ ({ ...clientOptions, transport })), referenceOrderId, token);
  return { ...report, sends };
}

/**
 * A direct payment through the public fetch transport given a fetch of the
 * app's (as a Worker's service binding would be): every attempt must go
 * through it, on every runtime, Node included.
 * @param {typeof import('@paymount/core')} core
 * @param {import('@paymount/core').PaymentClientOptions} clientOptions
 * @param {string} referenceOrderId
 * @param {string} token
 */
async function ownFetchPayment(core, clientOptions, referenceOrderId, token) {
  /** @type {string[]} */
  const urls = [];
  const transport = core.createFetchTransport({
    baseUrl: clientOptions.baseUrl,
    fetch: (url, init) => {
      urls.push(url);
      return fetch(url, init);
    },
  });
  const report = await payOnce(core.createPaymentClient({ ...clientOptions, transport }), referenceOrderId, token);
  return { ...report, urls };
}

/**
 * A direct payment through `client`: its answer's status, or the error it threw.
 * @param {import('@paymount/core').PaymentClient} client
 * @param {string} referenceOrderId
 * @param {string} token
 */
export async function payOnce(client, referenceOrderId, token) {
  try {
    const answer = await client.directPayment({ referenceOrderId, description: 'A teapot', amount: { orderAmount: 1999, priceCurrency: 'USD' }, cardEncryptedData: token });
    return { status: answer.status, outcomeUnknown: answer.outcomeUnknown };
  } catch (error) {
    return { error: describe(error) };
  } finally {
    await client.close();
  }
}

/**
 * @param {() => Promise<Record<string, unknown>>} run
 * @returns {Promise<StepReport>}
 */
async function step(run) {
  try {
    return { ok: true, ...(await run()) };
  } catch (error) {
    return failed(error);
  }
}

/** @param {unknown} error @returns {StepReport} */
function failed(error) {
  return { ok: false, error: describe(error) };
}

/** What an error says, for the report: never a key or a token (paymount's messages hold none). */
function describe(/** @type {unknown} */ error) {
  if (!(error instanceof Error)) return { name: typeof error, message: String(error) };
  const e = /** @type {Error & { code?: unknown; reason?: unknown; outcomeUnknown?: unknown; issues?: unknown }} */ (error);
  return {
    name: e.name,
    message: e.message,
    ...(e.code === undefined ? {} : { code: e.code }),
    ...(e.reason === undefined ? {} : { reason: e.reason }),
    ...(e.outcomeUnknown === undefined ? {} : { outcomeUnknown: e.outcomeUnknown }),
    ...(e.issues === undefined ? {} : { issues: e.issues }),
  };
}

/**
 * @param {string} url
 * @param {unknown} body
 */
async function postJson(url, body) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: /** @type {unknown} */ (await response.json()) };
}

/**
 * Polls (a promise settled from another request would cross request contexts on workerd).
 * @template T
 * @param {() => T | undefined} find
 * @returns {Promise<T>}
 */
async function waitFor(find) {
  for (let waited = 0; waited < WEBHOOK_WAIT_MS; waited += 50) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no webhook event arrived within ${WEBHOOK_WAIT_MS} ms`);
}
