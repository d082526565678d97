import { signWebhook } from '@paymount/core';
import { expect, it } from 'vitest';
import { recorder, type ConformanceContext, type ConformanceTarget } from './context';
import { freshOrderId, webhookPayload } from './fixtures';
import { sendRawPath } from './http';

/**
 * Spellings of `route` under `mountPath` that one layer of a stack resolves or
 * decodes into the route while another (a merchant's path-scoped guard)
 * matches them as sent. Labels say which trick each one plays.
 */
export function disguisedRoutePaths(mountPath: string, route: string): Array<[label: string, rawPath: string]> {
  const first = route.slice(1);
  const backslashed = route.replaceAll('/', '\\');
  return [
    ['a dot-dot segment', `${mountPath}/x/..${route}`],
    ['an encoded dot-dot segment', `${mountPath}/x/%2e%2e${route}`],
    ['an upper-case encoded dot-dot segment', `${mountPath}/x/%2E%2E${route}`],
    ['a dot segment', `${mountPath}/.${route}`],
    ['an encoded dot segment', `${mountPath}/%2e${route}`],
    ['an encoded slash before a dot-dot', `${mountPath}/x%2f..${route}`],
    ['an encoded slash after the mount', `${mountPath}%2F${first}`],
    ['backslashes around a dot-dot', `${mountPath}/x\\..${backslashed}`],
    ['backslashes for slashes', `${mountPath}${backslashed}`],
    ['a doubled slash', `${mountPath}/${route}`],
    ['a doubled slash before another segment', `${mountPath}//x${route}`],
    ['a doubled trailing slash', `${mountPath}${route}//`],
    ['an encoded letter', `${mountPath}/%${first.charCodeAt(0).toString(16)}${first.slice(1)}`],
    ...spelledIf('an upper-case encoded letter', escapeALetter(route, true), (escaped) => `${mountPath}${escaped}`),
    // A router that decodes the path before matching it (Hono's) takes an escaped mount for the mount itself.
    ...spelledIf('an encoded letter of the mount', escapeALetter(mountPath, false), (escaped) => `${escaped}${route}`),
    ...spelledIf('an upper-case encoded letter of the mount', escapeALetter(mountPath, true), (escaped) => `${escaped}${route}`),
  ];
}

function spelledIf(label: string, escaped: string | undefined, spell: (escaped: string) => string): Array<[string, string]> {
  return escaped === undefined ? [] : [[label, spell(escaped)]];
}

/**
 * `path` with its first letter whose escape holds a hex letter (`m`, `%6d`)
 * escaped, in upper or lower case; none when it has no such letter (a mount
 * at the root, `/status`), so each spelling is one a decoder reads as `path`.
 */
function escapeALetter(path: string, upperCase: boolean): string | undefined {
  const at = [...path].findIndex((char) => /[a-z]/i.test(char) && /[a-f]/.test(char.charCodeAt(0).toString(16)));
  if (at < 0) return undefined;
  const hex = path.charCodeAt(at).toString(16);
  return `${path.slice(0, at)}%${upperCase ? hex.toUpperCase() : hex}${path.slice(at + 1)}`;
}

interface RouteRequest {
  method: string;
  query?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The status the route answers this request with when its path is spelled plainly. */
  served: number;
}

/**
 * A request each route serves, sent again under every disguised spelling of
 * its path: each is refused with a 404 before any route runs (no span, no
 * order resolved, no charge, no event), while the plain spelling is then
 * served, so the 404s are the path's doing and nothing else's.
 */
export function pathCases(ctx: () => ConformanceContext, target: ConformanceTarget): void {
  const { seen, token } = recorder(ctx);
  const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const requests: Readonly<Record<string, () => RouteRequest>> = {
    '/checkout': () => ({ method: 'POST', ...json({ orderId: freshOrderId() }), served: 201 }),
    '/wallet/config': () => ({ method: 'GET', query: `?orderId=${freshOrderId()}`, served: 200 }),
    '/wallet/pay': () => ({ method: 'POST', ...json({ orderId: freshOrderId(), token: token() }), served: 200 }),
    '/status': () => ({ method: 'GET', query: `?orderId=${freshOrderId()}`, served: 200 }),
    '/webhook': () => {
      const payload = webhookPayload({ transactionId: `TX-path-${freshOrderId()}` });
      return { method: 'POST', ...signWebhook({ payload, secret: ctx().sandbox.webhookSecret }), served: 200 };
    },
  };
  const traces = () => {
    const { telemetry, ordersResolved, sandbox, events } = ctx();
    return [telemetry.spans().length, ordersResolved.length, sandbox.charges().length, events.length];
  };

  it.each(Object.keys(requests))(
    '%s under a disguised path (dot segments, encoded dots or slashes, backslashes, doubled slashes) answers 404 and runs nothing',
    async (route) => {
      const request = requests[route]!();
      const { origin, pathname: mountPath } = new URL(ctx().app.url);
      // A Fetch runtime parses the URL before the app sees it: what that resolves into the route's own path is the route to every layer.
      const resolvedByServer = (rawPath: string) => new URL(rawPath, origin).pathname === `${mountPath}${route}`;
      const disguised = disguisedRoutePaths(mountPath, route).filter(
        ([, rawPath]) => !(target.serverResolvesPaths === true && resolvedByServer(rawPath)),
      );
      await ctx().sandbox.waitForDeliveries();
      const before = traces();
      // The server's own redirect of a spelling, as [status, location], before the app sees it; none: the app answers.
      const redirect = (rawPath: string): [number, string] | undefined => {
        if (target.serverRedirectsDoubledSlashes === true && rawPath.includes('//')) return [308, `${rawPath.replace(/\/{2,}/g, '/')}${request.query ?? ''}`];
        if (target.serverCollapsesTrailingSlashes === true && /\/{2,}$/.test(rawPath)) {
          return [request.method === 'GET' ? 301 : 308, `${rawPath.replace(/\/{2,}$/, '/')}${request.query ?? ''}`];
        }
        return undefined;
      };
      const answered: Array<[string, string, number, string | null]> = [];
      for (const [label, rawPath] of disguised) {
        const res = seen(await sendRawPath(origin, `${rawPath}${request.query ?? ''}`, request));
        answered.push([label, rawPath, res.status, redirect(rawPath) ? res.location : null]);
      }
      const frameworkAnswered = (label: string) => target.frameworkAnswersEncodedSlashAfterMount === true && label === 'an encoded slash after the mount';
      expect(answered).toEqual(
        disguised.map(([label, rawPath]) => [label, rawPath, ...(redirect(rawPath) ?? [frameworkAnswered(label) ? expect.any(Number) : 404, null])]),
      );
      expect(traces()).toEqual(before);
      const plain = seen(await sendRawPath(origin, `${mountPath}${route}${request.query ?? ''}`, request));
      expect(plain.status).toBe(request.served);
      expect(traces()).not.toEqual(before);
    },
  );
}
