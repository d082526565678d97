import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index';
import { get, post, saleBody, sessionBody, startReceiver } from './helpers';

describe('secrets stay out of every output', () => {
  let sandbox: Sandbox;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const written: string[] = [];
  const errors: unknown[] = [];

  beforeAll(async () => {
    // Everything the process could print goes through these: console and the raw streams.
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void written.push(args.map(String).join(' ')));
    }
    for (const stream of [process.stdout, process.stderr]) {
      const original = stream.write.bind(stream);
      vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
        written.push(String(chunk));
        return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write);
    }
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, webhookRetryDelaysMs: [1], onError: (error) => errors.push(error) });
    receiver = await startReceiver({ statuses: [500] });
  });
  afterAll(async () => {
    await sandbox.close();
    await receiver.close();
    vi.restoreAllMocks();
  });

  it('no answer, ledger entry, delivery log, dashboard, trigger, resend or output line carries a key, the webhook secret or a token', async () => {
    const token = sandbox.mintWalletToken();
    const paid = await post(sandbox, '/v1/checkout/sale', saleBody(sandbox, { cardEncryptedData: token, notifyUrl: receiver.url }));
    const session = await post(sandbox, '/v1/checkout/create-session', sessionBody(sandbox, { notifyUrl: receiver.url }));
    const ids = { appId: sandbox.appId, merchantId: sandbox.merchantId };
    const answers = [
      paid,
      session,
      await post(sandbox, '/v1/checkout/refund', { ...ids, transactionRequestId: 'rf_secret_1', originalTransactionId: paid.json.data.transactionId, notifyUrl: receiver.url }),
      await post(sandbox, '/v1/checkout/refund', { ...ids, transactionRequestId: 'rf_secret_2', originalTransactionId: paid.json.data.transactionId }),
      await post(sandbox, '/v1/checkout/expire-session', { ...ids, sessionId: session.json.data.sessionId }),
      await get(sandbox, '/v1/transaction/query', { ...ids, transactionId: String(paid.json.data.transactionId) }),
      await get(sandbox, '/v1/transaction/query', { ...ids, transactionId: 'txn_unknown' }, { authorization: `Bearer ${sandbox.testApiKey}x` }),
      await post(sandbox, '/v1/checkout/sale', saleBody(sandbox, { cardEncryptedData: `${token.slice(0, -3)}"}` })),
      await post(sandbox, '/v1/checkout/sale', saleBody(sandbox, { cardEncryptedData: sandbox.mintWalletToken({ authMethod: 'PAN_ONLY' }) })),
      await post(sandbox, '/v1/checkout/create-session', sessionBody(sandbox), { authorization: `Bearer ${sandbox.productionApiKey}x` }),
      await post(sandbox, '/v1/checkout/create-session', sessionBody(sandbox), { authorization: `Bearer  ${sandbox.testApiKey}` }),
    ];
    expect(answers.map((answer) => answer.json.code)).toEqual(['0', '0', '0', 'T06', '0', '0', 'A02', 'W02', 'W04', 'A02', 'A01']);
    await sandbox.waitForDeliveries();
    const triggered = await sandbox.trigger('refund.failed', { forwardTo: receiver.url });
    const resent = await sandbox.resend(triggered.deliveryId);
    const controlAnswers = await Promise.all(
      [`/sandbox/deliveries/${resent.deliveryId}`, '/sandbox/deliveries?limit=5', '/sandbox/dashboard', '/sandbox/dashboard/data'].map(async (path) =>
        (await fetch(`${sandbox.url}${path}`)).text(),
      ),
    );
    const everything = [
      ...answers.map((answer) => answer.text),
      JSON.stringify([triggered, resent]),
      ...controlAnswers,
      JSON.stringify(sandbox.charges()),
      JSON.stringify(sandbox.refunds()),
      JSON.stringify(sandbox.deliveries()),
      ...receiver.received.map((hook) => hook.rawBody),
      ...written,
    ].join('\n');
    for (const secret of [sandbox.testApiKey, sandbox.productionApiKey, sandbox.webhookSecret, token]) {
      expect(everything).not.toContain(secret);
    }
    // The one thing written: the receiver's refusal (500 on the first attempt), as the sandbox logs a failed delivery.
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((line) => !line.startsWith('paymount sandbox: webhook '))).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('fixed credentials', () => {
  it.each(['testApiKey', 'productionApiKey', 'webhookSecret'] as const)(
    'refuses a %s shorter than 16 characters at start, without quoting it',
    async (name) => {
      const error = (await startSandbox({ credentials: { [name]: 'short_secret' } }).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toBe(
        `Invalid sandbox options: credentials.${name} must be at least 16 characters, as a paymount client requires of its key and webhook secret`,
      );
    },
  );
});
