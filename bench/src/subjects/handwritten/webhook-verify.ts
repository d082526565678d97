import { createHmac, timingSafeEqual } from 'node:crypto';

/** The bare minimum of checking a delivery: HMAC of the raw bytes, constant-time compare, parse. */
export function verifyBare(raw: Buffer, signatureHex: string, secret: string): unknown {
  const expected = createHmac('sha256', secret).update(raw).digest();
  const given = Buffer.from(signatureHex, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return JSON.parse(raw.toString('utf8'));
}

const TOLERANCE_MS = 5 * 60_000;

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** What a merchant writes around it: the three headers, the timestamp window, then the bare check. */
export function verifyByHand(raw: Buffer, headers: Headers, secret: string): { deliveryId: string; payload: unknown } | undefined {
  const signature = headers['x-signature'];
  const deliveryId = headers['x-client-request-id'];
  const timestamp = headers['x-timestamp'];
  if (typeof signature !== 'string' || typeof deliveryId !== 'string' || typeof timestamp !== 'string') return undefined;
  if (Math.abs(Date.now() - Number(timestamp)) > TOLERANCE_MS) return undefined;
  const payload = verifyBare(raw, signature, secret);
  return payload === undefined ? undefined : { deliveryId, payload };
}

/** Delivery ids already handled, the oldest forgotten first past `limit`: a hand-written dedupe. */
export class SeenDeliveries {
  private readonly seen = new Set<string>();

  constructor(private readonly limit: number) {}

  /** True the first time an id is seen. */
  add(id: string): boolean {
    if (this.seen.has(id)) return false;
    if (this.seen.size >= this.limit) this.seen.delete(this.seen.values().next().value!);
    this.seen.add(id);
    return true;
  }
}

/**
 * The bare minimum with Web Crypto, as a Worker would write it: the key
 * imported once, `crypto.subtle.verify` (constant-time) of the hex signature,
 * then the parse.
 */
export async function verifyBareWebCrypto(raw: Uint8Array, signatureHex: string, key: WebhookKey): Promise<unknown> {
  const given = Uint8Array.from(signatureHex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
  if (!(await crypto.subtle.verify('HMAC', key, given, raw))) return undefined;
  return JSON.parse(new TextDecoder().decode(raw));
}

type WebhookKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

export function importWebhookKey(secret: string): Promise<WebhookKey> {
  return crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}
