import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { compile } from 'zod/v4/core';
import { authenticate, claimRequestId } from '../auth';
import type { Environment } from '../credentials';
import { newTraceId, refusalReply, SandboxRefusal, success, type EnvelopeReply } from '../envelope';
import { parseJsonObject, queryParameters, readBody } from '../http-io';
import { localFix } from '../local-fix';
import type { RateLimitOptions } from '../rate-limit';
import { checkoutSessionRules } from '../rules/checkout-session';
import { directPaymentRules } from '../rules/direct-payment';
import { expireSessionRules } from '../rules/expire-session';
import { parseBody } from '../rules/issues';
import { refundRules } from '../rules/refund';
import { terminalSaleRules } from '../rules/terminal-sale';
import { transactionQueryRules } from '../rules/transaction-query';
import type { SandboxState } from '../state';
import { createSession } from './create-session';
import { directSale } from './direct-sale';
import { expireSession } from './expire-session';
import { refund } from './refund';
import { terminalSale } from './terminal-sale';
import { queryTransaction } from './transaction-query';

/** S04, naming the limit this sandbox was started with and how to lift it. */
function rateLimited({ limit, windowMs }: RateLimitOptions, waitMs: number): SandboxRefusal {
  const allows = `this sandbox allows ${limit} call${limit === 1 ? '' : 's'} per ${windowMs} ms`;
  const fix = localFix('start it with `startSandbox({ rateLimit: false })` (CLI: --rate-limit off) or a higher `rateLimit: { limit, windowMs }`');
  return new SandboxRefusal('S04', `call frequency limit exceeded (${allows}): reduce concurrency or retry after waiting${fix}`, {
    headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) },
  });
}

const BODY_LIMIT_FIX = localFix('start it with a larger `startSandbox({ bodyLimitBytes: <bytes> })`');

/** A service request's body, refused (R01) past the sandbox's `bodyLimitBytes`, which the refusal names. */
export function readServiceBody(req: IncomingMessage, state: SandboxState): Promise<Buffer> {
  return readBody(req, state.bodyLimitBytes, BODY_LIMIT_FIX);
}

/** One route's work on its input: the JSON body of a POST, the query string of a GET. */
type Endpoint = (environment: Environment, input: Record<string, unknown>) => Record<string, unknown>;

/** The application and merchant this sandbox knows; any other is refused before anything happens. */
function checkMerchant<T extends { appId: string; merchantId: string }>(state: SandboxState, body: T): T {
  if (body.appId !== state.credentials.appId) throw new SandboxRefusal('B01', 'appId is not an application of this merchant account');
  if (body.merchantId !== state.credentials.merchantId) throw new SandboxRefusal('B02', 'merchantId is not known');
  // Equal, so the body now holds the sandbox's own strings: each kept session would otherwise keep its own copy of both.
  const checked: { appId: string; merchantId: string } = body;
  checked.appId = state.credentials.appId;
  checked.merchantId = state.credentials.merchantId;
  return body;
}

function endpoint<T extends { appId: string; merchantId: string }>(
  state: SandboxState,
  schema: z.ZodType<T>,
  run: (state: SandboxState, environment: Environment, body: T) => Record<string, unknown>,
): Endpoint {
  // zod's generated fast path for a body that passes (a fifth of the parser's cost); one that fails goes through zod's own parser, so its issues are the same.
  const rules = compile(schema);
  return (environment, raw) => run(state, environment, checkMerchant(state, parseBody(rules, raw)));
}

/**
 * A service route: its method and what it does. A POST carries a JSON body
 * (Content-Type checked, X-Client-Request-Id claimed against duplicates, a rule
 * of POST requests: docs/service-contract.md#authentication); a GET reads its fields from the query string
 * and, being safe to repeat, neither needs a Content-Type nor claims its id.
 */
interface ServiceRoute {
  method: 'GET' | 'POST';
  run: Endpoint;
}

/**
 * The `/v1/` routes. Every request passes the same gate in the same order —
 * method, IP allow-list, Authorization, Content-Type (POST), timestamp,
 * request id, rate limit, duplicate request id (POST), body or query — so each
 * broken rule maps to one code.
 */
export function createServiceRoutes(state: SandboxState, reportError: (error: unknown) => void) {
  const post = (run: Endpoint): ServiceRoute => ({ method: 'POST', run });
  const routes = new Map<string, ServiceRoute>([
    ['/v1/checkout/create-session', post(endpoint(state, checkoutSessionRules(state.allowLocalNotifyUrl), createSession))],
    ['/v1/checkout/sale', post(endpoint(state, directPaymentRules(state.allowLocalNotifyUrl), directSale))],
    ['/v1/checkout/refund', post(endpoint(state, refundRules(state.allowLocalNotifyUrl), refund))],
    ['/v1/checkout/expire-session', post(endpoint(state, expireSessionRules, expireSession))],
    ['/v1/semi-integration/transaction/sale', post(endpoint(state, terminalSaleRules, terminalSale))],
    ['/v1/transaction/query', { method: 'GET', run: endpoint(state, transactionQueryRules, queryTransaction) }],
  ]);

  async function answer(req: IncomingMessage, path: string, body: Promise<Buffer> | undefined): Promise<EnvelopeReply> {
    const traceId = newTraceId();
    try {
      const route = routes.get(path);
      if (!route) throw new SandboxRefusal('R04', `no service route ${path}`);
      const { method } = route;
      if (req.method !== method) throw new SandboxRefusal('R05', `${path} takes ${method}`, { headers: { allow: method } });
      const now = state.clock.now();
      const environment = authenticate(req, { credentials: state.credentials, now, allowIp: state.allowIp, jsonBody: method === 'POST' });
      const limiter = state.rateLimiter;
      const waitMs = limiter?.take();
      if (limiter && waitMs !== undefined) throw rateLimited(limiter.options, waitMs);
      if (method === 'POST') claimRequestId(req, state.requestIds, now);
      const input = method === 'POST' ? parseJsonObject(await (body ?? readServiceBody(req, state))) : queryParameters(req);
      return { status: 200, envelope: success(traceId, route.run(environment, input)), headers: {} };
    } catch (error) {
      if (!(error instanceof SandboxRefusal)) reportError(error);
      return refusalReply(error instanceof SandboxRefusal ? error : new SandboxRefusal('E01', 'internal error'), traceId);
    }
  }

  /** `body` is the request's body as read when it arrived, for a request processed after that (the `late` fault). Every answer goes to the call log. */
  async function handle(req: IncomingMessage, path: string, body: Promise<Buffer> | undefined = undefined): Promise<EnvelopeReply> {
    const reply = await answer(req, path, body);
    state.calls.record(req.method ?? '', path, reply, state.clock.now());
    return reply;
  }

  return { handle };
}
