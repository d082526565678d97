import { Agent, request } from 'undici';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

/**
 * One connection pool for a test file, wide enough for its most concurrent phase. An idle connection
 * is kept 1 s at most, whatever the server's Keep-Alive hint: reusing one as the app server closes it
 * (Node's 5 s) meets a reset (ECONNRESET), and on a loaded machine this process's idle timers lag by
 * seconds, so the 2 s margin undici takes off the hint was not enough. A connection per request
 * instead (pipelining 0) left the apps accepting so many that connecting timed out under load.
 */
export function createAgent(connections = 64): Agent {
  return new Agent({ connections, pipelining: 1, keepAliveTimeout: 1_000, keepAliveMaxTimeout: 1_000 });
}

export async function send(
  agent: Agent,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  const response = await request(url, {
    dispatcher: agent,
    method: (init.method ?? 'GET') as 'GET',
    ...(init.headers ? { headers: init.headers } : {}),
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}

export function postJson(agent: Agent, url: string, body: unknown): Promise<Answer> {
  return send(agent, url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** The shopper pressing "Pay with test wallet" on the sandbox's hosted page. */
export function payHostedCheckout(agent: Agent, checkoutUrl: string): Promise<Answer> {
  return send(agent, `${checkoutUrl}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'testCard=approve',
  });
}

/** Runs `work` over `items` with at most `concurrency` in flight; bounded by the item count. */
export async function inPool<T, R>(items: readonly T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
