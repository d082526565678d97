import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listen, type Listening } from '../../../tools/adapter-testing';
import { PaymentErrorCode, PaymentRouteError } from '../src/index';
import { jsonResponse } from '../src/entries/internal';
import { toNeutralRequest, writeNeutralResponse } from '../src/entries/http';

let server: Listening;

/**
 * Plays a body parser mounted before paymount: `?parser` reads the stream
 * first, `?keep` keeps its bytes, `?parsed` leaves a parsed body (set even
 * without `?parser`, as Express 4's json() does), `?nest` asks for Nest's error.
 */
async function whatTheRoutesSee(req: IncomingMessage) {
  const flags = new URL(req.url ?? '/', 'http://localhost').searchParams;
  let bytes = Buffer.alloc(0);
  if (flags.has('parser')) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    bytes = Buffer.concat(chunks);
  }
  const neutral = toNeutralRequest(req, {
    limitBytes: 1_000,
    bodyParser: { rawBody: flags.has('keep') ? bytes : undefined, body: flags.has('parsed') ? { parsed: true } : undefined },
    ...(flags.has('nest') ? { consumedBodyError: () => new PaymentRouteError(500, PaymentErrorCode.RAW_BODY_MISSING, 'kept nothing') } : {}),
  });
  const parsedBody = neutral.parsedBody instanceof Uint8Array ? `bytes:${Buffer.from(neutral.parsedBody).toString()}` : neutral.parsedBody;
  const read = await neutral.readBody!().then(
    (body) => Buffer.from(body).toString(),
    (error: { code?: string }) => error.code,
  );
  return jsonResponse(200, { parsedBody: parsedBody ?? null, read });
}

beforeAll(async () => {
  server = await listen((req, res) => void whatTheRoutesSee(req).then((response) => writeNeutralResponse(res, response)));
});
afterAll(() => server.close());

const seen = async (flags: string) => (await fetch(`${server.url}/?${flags}`, { method: 'POST', body: '{"orderId":"o-1"}' })).json();

it.each([
  ['an unread stream is read by paymount, whatever body a parser that did not run left', 'parsed', { parsedBody: null, read: '{"orderId":"o-1"}' }],
  ['the bytes a parser kept win over what it parsed', 'parser&keep&parsed', { parsedBody: 'bytes:{"orderId":"o-1"}', read: 'BODY_ALREADY_CONSUMED' }],
  ['without kept bytes, what it parsed is handed on', 'parser&parsed', { parsedBody: { parsed: true }, read: 'BODY_ALREADY_CONSUMED' }],
  ['a stream consumed with nothing left is refused as consumed', 'parser', { parsedBody: null, read: 'BODY_ALREADY_CONSUMED' }],
  ["or with the adapter's own error", 'parser&nest', { parsedBody: null, read: 'RAW_BODY_MISSING' }],
])('%s', async (_name, flags, expected) => {
  expect(await seen(flags)).toEqual(expected);
});
