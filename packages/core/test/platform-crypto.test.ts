import { describe, expect, it, vi } from 'vitest';
import { hexOf, nodeCrypto, normalizeEvent, webCrypto } from '../src/entries/internal';

/*
 * Whatever core derives through the crypto seam must be the same bytes on
 * every platform: a store shared by a Node app and a Worker, or an order
 * retried after a move between them, sees the same request ids and dedupe keys.
 */

const encode = (text: string) => new TextEncoder().encode(text);
const INPUTS = ['', 'a', 'order-0001', 'ü€𝄞 and a NUL \u0000 inside', 'x'.repeat(100_000)];
const SECRETS = ['k', 'whsec_test_0123456789abcdef', 'ключ-🔑', 's'.repeat(200)];

describe('node:crypto and Web Crypto', () => {
  it('give the same SHA-256 and HMAC-SHA256 bytes', async () => {
    for (const input of INPUTS) {
      expect(await webCrypto.sha256(encode(input))).toEqual(new Uint8Array(await nodeCrypto.sha256(encode(input))));
      for (const secret of SECRETS) {
        const web = await webCrypto.hmacSha256(secret, encode(input));
        expect(web).toEqual(new Uint8Array(await nodeCrypto.hmacSha256(secret, encode(input))));
        expect(hexOf(web)).toBe(nodeCrypto.hmacSha256HexSync!(secret, encode(input)));
      }
    }
  });

  it('sign with the right key however many secrets come and go (node keeps a few keys made)', async () => {
    const secrets = Array.from({ length: 20 }, (_, n) => `whsec_rotated_${n}`);
    for (const round of [1, 2]) {
      for (const secret of secrets) {
        const input = encode(`delivery ${round}`);
        expect(nodeCrypto.hmacSha256HexSync!(secret, input)).toBe(hexOf(await webCrypto.hmacSha256(secret, input)));
      }
    }
  });
});

/** What `load` imports, as the web build binds it: platform/current is the web platform. */
async function onWebPlatform<T>(load: () => Promise<T>): Promise<T> {
  vi.resetModules();
  vi.doMock('../src/platform/current', () => import('../src/platform/current.web'));
  try {
    expect((await import('../src/platform/current')).platform.name).toBe('web');
    return await load();
  } finally {
    vi.doUnmock('../src/platform/current');
    vi.resetModules();
  }
}

describe('ids and keys derived through the seam', () => {
  const account = { appId: 'app_1', merchantId: 'mch_1' };

  it('request ids are byte-identical on both platforms, keyed or not', async () => {
    const node = await import('../src/entries/internal');
    const web = await onWebPlatform(() => import('../src/entries/internal'));
    expect((await import('../src/platform/current')).platform.name).toBe('node');
    for (const key of [undefined, 'k'.repeat(32)]) {
      const [nodeIds, webIds] = [node.requestIdSource(account, key), web.requestIdSource(account, key)];
      for (const order of ['order-0001', 'ü-order', 'o'.repeat(300)]) {
        for (const sequence of [0, 1, 36 ** 7 - 1]) {
          const id = await nodeIds.idOf(order, sequence);
          expect(await webIds.idOf(order, sequence)).toBe(id);
          expect(await webIds.sequenceOf(order, id)).toBe(sequence);
        }
      }
    }
  });

  it('dedupe keys are byte-identical on both platforms', async () => {
    const node = await import('../src/entries/webhooks');
    const web = await onWebPlatform(() => import('../src/entries/webhooks'));
    const origin = { deliveryId: 'd1', timestamp: 0 };
    const sale = { referenceOrderId: 'order-1', amount: { orderAmount: 1999, priceCurrency: 'USD' }, transactionType: 'SALE' };
    const events = [
      normalizeEvent({ ...sale, transactionId: 'T1', transactionRequestId: 'R1', transactionStatus: 'S' }, origin),
      normalizeEvent({ ...sale, transactionId: 'T-ü', transactionRequestId: 'R2', transactionStatus: 's' }, origin),
      normalizeEvent({ transactionType: 'SALE', sessionId: 'cs_ü' }, origin),
    ];
    for (const event of events) expect(await web.dedupeKeyOf(event)).toBe(await node.dedupeKeyOf(event));
  });
});
