import { createHmac } from 'node:crypto';

/** `X-Signature`: lowercase hex HMAC-SHA256 of the raw body bytes under the webhook secret. */
export function signatureOf(rawBody: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}
