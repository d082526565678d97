import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { headerValue } from './http-io';

/** The origin a request is addressed to (its scheme and Host): the origin of a page the sandbox served to the browser sending it. */
export function ownOrigin(req: IncomingMessage): string | undefined {
  const host = headerValue(req, 'host');
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  return host === undefined ? undefined : (URL.parse(`${scheme}://${host}`)?.origin ?? undefined);
}
