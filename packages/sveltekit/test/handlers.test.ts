import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../../../tests/readmes/test/support/quick-start';
import { nodeBuild, type NodeBuild } from './support/node-build';

/** Resolves once `text` is in the server's output, or fails after `timeoutMs`. */
async function logged(server: NodeBuild, text: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!server.output().includes(text)) {
    if (Date.now() > deadline) throw new Error(`the server never logged "${text}":\n${server.output()}`);
    await sleep(25);
  }
  return server.output();
}

const INTERNAL_ERROR = { error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.' } };

// The test app's own routes (test/sveltekit-app/src/routes) over the README's options, under node build with the sandbox.
describe('the handlers in routes of a SvelteKit app, under node build', () => {
  let server: NodeBuild | undefined;
  const running = () => {
    if (!server) throw new Error('node build did not start');
    return server;
  };

  beforeAll(async () => {
    server = await nodeBuild({ PAYMOUNT_SANDBOX: '1', SHOP_ORDERS: 'sk-group-1:1250,sk-context-1:1250' });
  });

  afterAll(async () => {
    await server?.close();
  });

  it('read the mount path from a route in a group: src/routes/(shop)/grouped/[...paymount] serves /grouped', async () => {
    const res = await postJson(`${running().origin}/grouped/checkout`, { orderId: 'sk-group-1' });
    expect(res.status).toBe(201);
    expect(await postJson(`${running().origin}/grouped/nowhere`, {})).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
  });

  it("hand resolveOrder SvelteKit's RequestEvent as ctx.context: its cookies, route id and params", async () => {
    const url = `${running().origin}/context-check/checkout`;
    expect(await postJson(url, { orderId: 'sk-context-1' }, { cookie: 'shopper=alice' })).toMatchObject({ status: 201 });
    expect(await postJson(url, { orderId: 'sk-context-1' }, { cookie: 'shopper=mallory' })).toMatchObject({ status: 404, body: { error: { code: 'ORDER_NOT_FOUND' } } });
  });

  it('answer 500 and log the fix when exported from a route without a rest parameter', async () => {
    const res = await postJson(`${running().origin}/misplaced`, { orderId: 'sk-group-1' });
    expect(res).toEqual({ status: 500, body: INTERNAL_ERROR });
    const output = await logged(running(), 'cannot read their mount path from this route');
    expect(output).toContain('src/routes/payments/[...paymount]/+server.ts');
  });

  it('answer a body read before the routes with BODY_ALREADY_CONSUMED, and log the fix in SvelteKit words', async () => {
    const res = await postJson(`${running().origin}/body-read-before/webhook`, { transactionId: 'TX-1' });
    expect(res).toMatchObject({ status: 500, body: { error: { code: 'BODY_ALREADY_CONSUMED' } } });
    const output = await logged(running(), 'event.request.clone().text()');
    expect(output).toContain("if (event.url.pathname.startsWith('/payments/')) return resolve(event);");
  });
});
