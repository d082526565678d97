import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { SandboxRefusal } from '../envelope';
import { headerValue } from '../http-io';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The hostname a Host or Origin names, as a URL writes it (lower case, IPv6 in brackets). */
function hostnameOf(authority: string | undefined): string | undefined {
  return authority === undefined ? undefined : (URL.parse(`http://${authority}/`)?.hostname ?? undefined);
}

/** A socket's address as written without the IPv4-mapped prefix a dual-stack server puts on it. */
function plainAddress(address: string | undefined): string | undefined {
  return address?.replace(/^::ffff:/, '') || undefined;
}

/** The address the connection arrived on, as a Host header naming it by IP spells it. */
function localHostname(req: IncomingMessage): string | undefined {
  const address = plainAddress(req.socket.localAddress);
  if (!address) return undefined;
  return isIP(address) === 6 ? `[${address}]` : address;
}

/** The addresses this machine's own tools call from by default (the kernel picks them for any loopback destination). */
const DEFAULT_LOOPBACK_CALLERS = new Set(['127.0.0.1', '::1']);

/**
 * Who may call the control routes: the connection's peer address (never a
 * header, which any caller writes). This machine calls from 127.0.0.1 or ::1,
 * or from the very address the sandbox listens on; every other caller, other
 * loopback addresses such as 127.0.0.3 (another container or network
 * namespace sharing the host's loopback) included, needs `allowCaller`, the
 * `controlAllowList` option.
 */
export function checkControlCaller(req: IncomingMessage, allowCaller: ((address: string) => boolean) | undefined): void {
  const caller = plainAddress(req.socket.remoteAddress);
  const local = plainAddress(req.socket.localAddress);
  if (caller !== undefined && (DEFAULT_LOOPBACK_CALLERS.has(caller) || caller === local || allowCaller?.(caller) === true)) return;
  throw new SandboxRefusal(
    'C02',
    `the control routes answer this machine only: caller ${caller ?? 'unknown'} is neither 127.0.0.1, ::1 nor ${local ?? 'the address the sandbox listens on'}. ` +
      `To let it move the clock, mint tokens and send webhooks, start the sandbox with controlAllowList: ['${caller ?? '<address>'}'] (--control-allow ${caller ?? '<address>'}).`,
  );
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
  checkControlHost(req, sandboxUrl);
  const mediaType = headerValue(req, 'content-type')?.split(';', 1)[0]?.trim().toLowerCase();
  if (req.method === 'POST' && mediaType !== 'application/json') {
    throw new SandboxRefusal('A08', 'control routes take a JSON body: send Content-Type: application/json');
  }
}

/** The Host header names this sandbox (DNS rebinding would make it name another site); refuses C01 otherwise. */
export function checkControlHost(req: IncomingMessage, sandboxUrl: string): void {
  const hostname = hostnameOf(headerValue(req, 'host'));
  const known =
    hostname !== undefined &&
    (LOOPBACK_HOSTNAMES.has(hostname) || hostname === URL.parse(sandboxUrl)?.hostname || hostname === localHostname(req));
  if (!known) {
    throw new SandboxRefusal('C01', 'the Host header must name this sandbox as localhost, 127.0.0.1, [::1] or the address it listens on');
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
