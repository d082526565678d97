import { z } from 'zod';
import { isPublicHostname } from './public-host';

/** Validation context shared by the request schemas. */
export interface SchemaContext {
  /** Allows plain HTTP and non-public hosts in callback URLs, for a merchant app and sandbox on one machine. */
  localDevelopment?: boolean;
}

function parseHttpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An absolute callback URL the service will call or send the customer to.
 * Outside local development it must be HTTPS on a public host: the service
 * cannot reach a loopback or private address, and a webhook over plain HTTP
 * could be read or forged on the way.
 */
export function callbackUrlSchema(maxLength: number, context: SchemaContext = {}) {
  return z
    .string()
    .max(maxLength, `must be at most ${maxLength} characters`)
    .refine((value) => parseHttpUrl(value) !== undefined, {
      message: 'must be an absolute http(s) URL',
      params: { rule: 'url' },
      abort: true,
    })
    .refine(
      (value) => {
        if (context.localDevelopment) return true;
        const url = parseHttpUrl(value);
        return url !== undefined && isPublicHttps(url);
      },
      {
        message:
          'must be public HTTPS (no http://, loopback, private, link-local or .local host); pass localDevelopment: true to the client only when working against a local sandbox',
        params: { rule: 'public_https' },
      },
    );
}

function isPublicHttps(url: URL): boolean {
  return url.protocol === 'https:' && isPublicHostname(url.hostname);
}

/** Whether callbackUrlSchema(maxLength, context) accepts `value`, without building its issues. */
export function isCallbackUrl(value: unknown, maxLength: number, context: SchemaContext): boolean {
  if (typeof value !== 'string' || value.length > maxLength) return false;
  const url = parseHttpUrl(value);
  return url !== undefined && (context.localDevelopment === true || isPublicHttps(url));
}
