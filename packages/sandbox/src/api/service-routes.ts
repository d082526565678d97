import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { authenticate, claimRequestId } from '../auth';
import type { Environment } from '../credentials';
import { newTraceId, refusalReply, SandboxRefusal, success, type EnvelopeReply } from '../envelope';
import { parseJsonObject, readBody } from '../http-io';
import { checkoutSessionRules } from '../rules/checkout-session';
import { directPaymentRules } from '../rules/direct-payment';
import { parseBody } from '../rules/issues';
import { terminalSaleRules } from '../rules/terminal-sale';
import type { SandboxState } from '../state';
import { createSession } from './create-session';
import { directSale } from './direct-sale';
import { terminalSale } from './terminal-sale';

type Endpoint = (environment: Environment, body: Record<string, unknown>) => Record<string, unknown>;

/** The application and merchant this sandbox knows; any other is refused before anything happens. */
function checkMerchant<T extends { appId: string; merchantId: string }>(state: SandboxState, body: T): T {
  if (body.appId !== state.credentials.appId) throw new SandboxRefusal('B01', 'appId is not an application of this merchant account');
  if (body.merchantId !== state.credentials.merchantId) throw new SandboxRefusal('B02', 'merchantId is not known');
  return body;
}

function endpoint<T extends { appId: string; merchantId: string }>(
  state: SandboxState,
  schema: z.ZodType<T>,
  run: (state: SandboxState, environment: Environment, body: T) => Record<string, unknown>,
): Endpoint {
  return (environment, raw) => run(state, environment, checkMerchant(state, parseBody(schema, raw)));
}

/**
 * The `/v1/` routes of the spec. Every request passes the same gate in the
 * same order — method, IP allow-list, Authorization, Content-Type, timestamp,
 * request id, rate limit, duplicate request id, body — so each broken rule
 * maps to one code.
 */
export function createServiceRoutes(state: SandboxState, reportError: (error: unknown) => void) {
  const endpoints = new Map<string, Endpoint>([
    ['/v1/checkout/create-session', endpoint(state, checkoutSessionRules(state.allowLocalNotifyUrl), createSession)],
    ['/v1/checkout/sale', endpoint(state, directPaymentRules(state.allowLocalNotifyUrl), directSale)],
    ['/v1/semi-integration/transaction/sale', endpoint(state, terminalSaleRules, terminalSale)],
  ]);

  async function handle(req: IncomingMessage, path: string): Promise<EnvelopeReply> {
    const traceId = newTraceId();
    try {
      const run = endpoints.get(path);
      if (!run) throw new SandboxRefusal('R04', `no service route ${path}`);
      if (req.method !== 'POST') throw new SandboxRefusal('R05', `${path} takes POST`, { headers: { allow: 'POST' } });
      const now = state.clock.now();
      const environment = authenticate(req, { credentials: state.credentials, now, allowIp: state.allowIp });
      const waitMs = state.rateLimiter?.take();
      if (waitMs !== undefined) {
        throw new SandboxRefusal('S04', 'call frequency limit exceeded: reduce concurrency or retry after waiting', {
          headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) },
        });
      }
      claimRequestId(req, state.requestIds, now);
      const body = parseJsonObject(await readBody(req, state.bodyLimitBytes));
      return { status: 200, envelope: success(traceId, run(environment, body)), headers: {} };
    } catch (error) {
      if (!(error instanceof SandboxRefusal)) reportError(error);
      return refusalReply(error instanceof SandboxRefusal ? error : new SandboxRefusal('E01', 'internal error'), traceId);
    }
  }

  return { handle };
}
