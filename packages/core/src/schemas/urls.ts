import * as z from 'zod/mini';
import { isPublicUrlHost } from './public-host';

/** Validation context shared by the request schemas. */
export interface SchemaContext {
  /** Allows plain HTTP and non-public hosts in callback URLs, for a merchant app and sandbox on one machine. */
  localDevelopment?: boolean;
}

const NOT_A_URL = { rule: 'url', message: 'must be an absolute http(s) URL' } as const;
const NOT_PUBLIC_HTTPS = {
  rule: 'public_https',
  message:
    'must be public HTTPS (no http://, loopback, private, link-local or .local host); pass localDevelopment: true to the client only when working against a local sandbox',
} as const;

/** Which rule of a callback URL `value` breaks, if any: the URL is parsed once for both. */
function brokenRule(value: string, context: SchemaContext): typeof NOT_A_URL | typeof NOT_PUBLIC_HTTPS | undefined {
  const url = URL.parse(value);
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return NOT_A_URL;
  if (context.localDevelopment || (url.protocol === 'https:' && isPublicUrlHost(url))) return undefined;
  return NOT_PUBLIC_HTTPS;
}

/**
 * An absolute callback URL the service will call or send the customer to.
 * Outside local development it must be HTTPS on a public host: the service
 * cannot reach a loopback or private address, and a webhook over plain HTTP
 * could be read or forged on the way.
 */
export function callbackUrlSchema(maxLength: number, context: SchemaContext = {}) {
  return z.string().check(
    z.maxLength(maxLength, `must be at most ${maxLength} characters`),
    (payload) => {
      const broken = brokenRule(payload.value, context);
      if (broken === undefined) return;
      // Not a URL at all aborts: no further rule can be judged on it.
      payload.issues.push({
        code: 'custom',
        input: payload.value,
        message: broken.message,
        params: { rule: broken.rule },
        continue: broken !== NOT_A_URL,
      });
    },
  );
}
