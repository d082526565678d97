import type { PaymentEvent, PaymentRoutesOptions } from '@paymount/core';
import type { Sandbox } from '@paymount/sandbox';
import type { TelemetryCapture } from '../telemetry-testing';

/** A merchant app started by an adapter's factory. */
export interface ConformanceApp {
  /** Absolute URL where the payment routes are mounted, e.g. `http://127.0.0.1:41234/payments`. */
  url: string;
  close(): Promise<void>;
}

/**
 * What an adapter provides to be tested. `startApp` must start a real app on
 * 127.0.0.1 (port 0) that mounts the payment routes built from `options` at
 * `url`, and that also serves the app's own route `GET {url}/own-route`,
 * registered AFTER the payment routes, answering `200 {"own":true}`; any other
 * path is left to the framework's own 404.
 */
export interface ConformanceTarget {
  startApp(options: PaymentRoutesOptions): Promise<ConformanceApp>;
  /**
   * The platform parses JSON before any route and answers malformed JSON itself
   * (Nest on Fastify, whose parser always runs): that case then checks the 400 only.
   */
  platformAnswersMalformedJson?: boolean;
  /**
   * The server parses each request's URL before the app sees it, as every Fetch
   * runtime does: dot segments and backslashes arrive resolved, to the app and
   * to any middleware before the routes alike.
   */
  serverResolvesPaths?: boolean;
  /**
   * A parser of the platform or app reads every JSON body before the routes
   * (Nest on Fastify, Express behind `express.json()`): the routes' read
   * deadline never applies, so the slow-body case is skipped.
   */
  platformReadsBodies?: boolean;
  /**
   * The platform sends no `Content-Length` a handler set (Next.js drops it from
   * every route handler's answer, and so from a HEAD answer, which has no body
   * to count): the HEAD case then checks the status, type and empty body.
   */
  platformDropsContentLength?: boolean;
  /**
   * The platform answers a HEAD with `Content-Length: 0` instead of the length a handler set (Nitro's bun
   * preset): the HEAD case then expects that `0`, with the status, type and empty body.
   */
  platformZeroesHeadContentLength?: boolean;
  /**
   * The server answers a path with doubled slashes with a `308` to the path
   * with them collapsed, before the app sees it (Next.js): those spellings
   * are answered so, and still run nothing; the redirect's target is the path
   * every layer then sees alike.
   */
  serverRedirectsDoubledSlashes?: boolean;
  /**
   * The server answers a path ending in two or more slashes with a redirect to
   * it ending in one (`301` to a GET, `308` otherwise), before the app sees it
   * (Astro): those spellings are answered so, and still run nothing.
   */
  serverCollapsesTrailingSlashes?: boolean;
  /**
   * The platform refuses cross-site form posts itself with `403` before any
   * route (Astro's `security.checkOrigin`, SvelteKit's CSRF check): a form post
   * is served only with the app's own `Origin`, which a browser sends with its
   * own pages' forms. The suite then sends that `Origin` with the form posts it
   * means to be served, and expects `403` from the platform, with nothing run,
   * for every other (foreign, `null`, absent, and allowed by `allowedOrigins`
   * unless `platformTrustsAllowedOrigin`).
   */
  platformChecksFormOrigin?: boolean;
  /**
   * With `platformChecksFormOrigin`: the app lists `ALLOWED_ORIGIN` among the
   * platform's own trusted origins (SvelteKit's `csrf.trustedOrigins`), so a
   * form post from it is served, as the routes' `allowedOrigins` serves it.
   * Without it (Astro's `checkOrigin` has no such list) it gets the platform's `403`.
   */
  platformTrustsAllowedOrigin?: boolean;
  /**
   * The framework's own router answers a path with an encoded slash right
   * after the mount (`/payments%2Fcheckout`) before any payment route sees it
   * (TanStack Start's page router): its status is the framework's, and the
   * case still checks that nothing ran.
   */
  frameworkAnswersEncodedSlashAfterMount?: boolean;
  /**
   * The platform sends no `Connection` header a handler set (workerd drops
   * hop-by-hop headers from a Worker's answer): the slow-loris case then
   * checks that the connection was closed without the header announcing it.
   */
  platformDropsConnectionHeader?: boolean;
  /**
   * Why the server keeps the routes' answer to a body still trickling in, or
   * the connection under it, from reaching the client (Deno.serve reads the
   * declared body to its end before closing; `next start` sends an edge
   * route's answer only after it): the slow-loris case, which requires both,
   * is skipped under this reason.
   */
  slowBodyCaseSkipped?: string;
  /**
   * Why the server sends the routes' 408 to a body still trickling in but
   * keeps the connection under it open until the declared body has arrived
   * (Deno.serve, whose handler cannot end a connection): the slow-loris case
   * then holds the 408 to its shape and proves the connection still open
   * `SLOW_BODY_KEPT_OPEN_MS` after it, the runtime's known limit (SECURITY.md),
   * so a runtime that starts closing it fails the case and the limit is lifted.
   */
  slowBodyConnectionKeptOpen?: string;
  /**
   * Why the server resets, rather than closes, a connection whose declared
   * body it left unread (workerd): a client still sending then fails its next
   * write, and Node destroys the socket with an answer perhaps still unread.
   * On a starved machine some slow-loris connections see only the reset: the
   * case accepts that (it is the server ending the connection) and holds the
   * 408 to its shape on every connection that got it, at least one per route.
   */
  resetsUnreadConnection?: string;
  /**
   * The routes run in another runtime (this names it) and get the suite's
   * options through `remote.ts`: their functions as calls back to this
   * process. The `telemetry` option, an OpenTelemetry SDK of this process,
   * cannot follow: the cases that read its spans and metrics are skipped.
   */
  remoteRuntime?: string;
}

/** The live state one suite run shares between its cases. */
export interface ConformanceContext {
  app: ConformanceApp;
  sandbox: Sandbox;
  /** Every order id `resolveOrder` was asked for, in order. */
  ordersResolved: string[];
  /** Every event a handler accepted, in order. */
  events: PaymentEvent[];
  /** Makes the next handler call for this transactionId or referenceOrderId throw, once. */
  failNextEvent(key: string): void;
  /**
   * Holds the next handler call for this transactionId: `started` resolves once
   * it runs, and it goes on when `release` says whether it should then throw.
   */
  holdNextEvent(key: string): { started: Promise<void>; release(fail: boolean): void };
  /** Every log line the handlers wrote, serialised. */
  logLines: string[];
  /** Every wallet token the suite minted, to prove none leaks. */
  walletTokens: string[];
  /** Every response body the suite received, to prove no secret leaks. */
  responses: string[];
  /** What the handlers' `telemetry` option exported: every span and metric of the suite. */
  telemetry: TelemetryCapture;
}

/** What most cases do with what they send and receive: keep each answer for the final leak scan, and each minted token. */
export function recorder(ctx: () => ConformanceContext) {
  return {
    seen<T extends { text: string }>(exchange: T): T {
      ctx().responses.push(exchange.text);
      return exchange;
    },
    token(): string {
      const minted = ctx().sandbox.mintWalletToken();
      ctx().walletTokens.push(minted);
      return minted;
    },
  };
}
