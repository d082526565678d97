import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { SandboxRefusal } from '../envelope';
import { headerValue } from '../http-io';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The hostname a Host or Origin names, as a URL writes it (lower case, IPv6 in brackets). */
function hostnameOf(authority: string | undefined): string | undefined {
  return authority === undefined ? undefined : (URL.parse(`http://${authority}/`)?.hostname ?? undefined);
}

/** The address the connection arrived on, as a Host header naming it by IP spells it. */
function localHostname(req: IncomingMessage): string | undefined {
  const address = req.socket.localAddress?.replace(/^::ffff:/, '');
  if (!address) return undefined;
  return isIP(address) === 6 ? `[${address}]` : address;
}

/**
 * The control routes move the sandbox's clock and mint wallet tokens: only the
 * developer's own tools and pages may use them. A page on another site could
 * reach them in two ways, both closed here. It can send a form or text/plain
 * POST to any address without asking: so a POST must carry JSON, which a page
 * on another origin cannot send without a CORS preflight (granted by the token
 * route alone, to the origins of `walletCorsHeaders`). And by DNS rebinding it
 * can re-point its own name at this machine: so the Host header must name the
 * sandbox itself.
 */
export function checkControlRequest(req: IncomingMessage, sandboxUrl: string): void {
  const hostname = hostnameOf(headerValue(req, 'host'));
  const known =
    hostname !== undefined &&
    (LOOPBACK_HOSTNAMES.has(hostname) || hostname === URL.parse(sandboxUrl)?.hostname || hostname === localHostname(req));
  if (!known) {
    throw new SandboxRefusal('C01', 'the Host header must name this sandbox as localhost, 127.0.0.1, [::1] or the address it listens on');
  }
  const mediaType = headerValue(req, 'content-type')?.split(';', 1)[0]?.trim().toLowerCase();
  if (req.method === 'POST' && mediaType !== 'application/json') {
    throw new SandboxRefusal('A08', 'control routes take a JSON body: send Content-Type: application/json');
  }
}

/** A page on this machine: the shop under development, on any port. */
function isLoopbackOrigin(origin: string): boolean {
  const url = URL.parse(origin);
  if (url === null || url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  return LOOPBACK_HOSTNAMES.has(url.hostname) || url.hostname.endsWith('.localhost');
}

/**
 * CORS for the token route, which the test wallet script calls from the shop's
 * page (another origin: the shop's port, not the sandbox's). Granted to
 * loopback origins and to `walletOrigins` only, by name, never `*`.
 */
export function walletCorsHeaders(req: IncomingMessage, walletOrigins: ReadonlySet<string>): Record<string, string> {
  const origin = headerValue(req, 'origin');
  if (origin === undefined || !(isLoopbackOrigin(origin) || walletOrigins.has(origin))) return { vary: 'Origin' };
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': 'content-type',
    'access-control-max-age': '600',
    vary: 'Origin',
  };
}
