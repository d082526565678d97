import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/index';

/** zod's own wording, which no answer of the sandbox may carry. */
const ZOD_WORDING = /Invalid input|Invalid option|Too small|Too big|expected .* received/;

interface Refusal {
  status: number;
  error: { code: string; message: string; issues?: Array<{ field: string; code: string; message: string }> };
}

describe('the control routes refuse bad input in paymount words, every issue in one answer', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ log: false, announce: false });
  });
  afterAll(() => sandbox.close());

  async function refused(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Refusal> {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: res.status, error: ((await res.json()) as { error: Refusal['error'] }).error };
  }

  it.each([
    [
      'POST /sandbox/wallet-token',
      'POST',
      '/sandbox/wallet-token',
      { authMethod: 'PAN', gateway: 5, cardNetwrk: 'VISA' },
      [
        ['gateway', 'gateway must be a string of at most 64 characters'],
        ['authMethod', 'authMethod must be one of `CRYPTOGRAM_3DS`, `PAN_ONLY`'],
        ['cardNetwrk', 'cardNetwrk is not an option; did you mean `cardNetwork`?'],
      ],
    ],
    ['POST /sandbox/clock/advance without ms', 'POST', '/sandbox/clock/advance', {}, [['ms', 'ms is required: a number']]],
    [
      'POST /sandbox/clock/advance with a misspelt ms',
      'POST',
      '/sandbox/clock/advance',
      { ms: 'soon', msec: 1000 },
      [
        ['ms', 'ms must be a number'],
        ['msec', 'msec is not an option; did you mean `ms`?'],
      ],
    ],
    ['GET /sandbox/deliveries?limit=0', 'GET', '/sandbox/deliveries?limit=0', undefined, [['limit', 'limit must be at least 1']]],
    [
      'GET /sandbox/deliveries with a misspelt limit',
      'GET',
      '/sandbox/deliveries?limt=5&limit=many',
      undefined,
      [
        ['limit', 'limit must be an integer from 1 to 10000'],
        ['limt', 'limt is not an option; did you mean `limit`?'],
      ],
    ],
  ] as const)('%s: 400 R02 naming each field and its rule', async (_label, method, path, body, expected) => {
    const { status, error } = await refused(method, path, body);
    expect(status).toBe(400);
    expect(error.code).toBe('R02');
    expect(error.issues?.map((issue) => [issue.field, issue.message])).toEqual(expected);
    // The answer's message alone says every issue, in the order of the list.
    expect(error.message).toBe(expected.map(([, message]) => message).join('; '));
    expect(JSON.stringify(error)).not.toMatch(ZOD_WORDING);
  });

  it('POST /sandbox/trigger: a misspelt option is refused naming the right one, with the other issues, nothing created', async () => {
    const before = sandbox.deliveries().length;
    const { status, error } = await refused('POST', '/sandbox/trigger', { event: 'payment.succeeded', forwardTo: 5, amout: 2500 });
    expect(status).toBe(400);
    expect(error.issues).toEqual([
      { field: 'forwardTo', code: 'V02', message: 'forwardTo must be a string' },
      { field: 'amout', code: 'R02', message: 'amout is not an option; did you mean `amount`?' },
    ]);
    expect(JSON.stringify(error)).not.toMatch(ZOD_WORDING);
    expect(sandbox.deliveries()).toHaveLength(before);
  });

  it('POST /sandbox/trigger: every missing field is named with what it must be', async () => {
    const { status, error } = await refused('POST', '/sandbox/trigger', {});
    expect(status).toBe(400);
    expect(error.issues?.map((issue) => issue.message)).toEqual([
      'event must be one of payment.succeeded, payment.failed, payment.closed, refund.succeeded, refund.failed',
      'forwardTo is required: a string',
    ]);
    expect(JSON.stringify(error)).not.toMatch(ZOD_WORDING);
  });

  it('sandbox.trigger() refuses an unknown option the same way', async () => {
    const error = await sandbox
      .trigger('payment.succeeded', { forwardTo: 'http://127.0.0.1:1/hook', referenceOrderID: 'order-1234' } as never)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'R02', message: 'referenceOrderID is not an option; did you mean `referenceOrderId`?' });
  });
});
