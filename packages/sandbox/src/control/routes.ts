import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { parseJsonObject, queryParameters, readBody, sendJson, sendText } from '../http-io';
import { SandboxRefusal } from '../envelope';
import { parseControlInput } from '../rules/issues';
import type { SandboxState } from '../state';
import { trigger } from '../trigger';
import { mintWalletToken } from '../wallet-token';
import { createIpAllowList } from '../ip-allow-list';
import { createDashboardRoutes } from '../dashboard/routes';
import { checkControlCaller, checkControlHost, checkControlRequest, walletCorsHeaders } from './request-guard';
import { testWalletScript } from './test-wallet-script';

// Strict: a misspelt option is refused, naming the one meant, rather than ignored.
const mintRequest = z.strictObject({
  gateway: z.string().max(64).optional(),
  gatewayMerchantId: z.string().max(64).optional(),
  authMethod: z.enum(['CRYPTOGRAM_3DS', 'PAN_ONLY']).optional(),
  additional3dsRequired: z.boolean().optional(),
  cardNetwork: z.string().max(32).optional(),
});

const clockMove = z.strictObject({ ms: z.number() });

const deliveryList = z.strictObject({
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
});

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req, 16_384);
  return raw.length === 0 ? {} : parseJsonObject(raw);
}

export interface ControlRouteOptions {
  /** Page origins besides loopback ones that may mint tokens through the test wallet (CORS). */
  walletOrigins?: readonly string[];
  /** Told about unexpected errors, answered with E01. */
  reportError?: (error: unknown) => void;
  /** Callers (exact or CIDR) besides this machine's own that may use these routes. */
  controlAllowList?: readonly string[];
}

const TOKEN_PATH = '/sandbox/wallet-token';
const DELIVERY_PATH = /^\/sandbox\/deliveries\/([^/]+)(\/resend)?$/;

type Route = (req: IncomingMessage, res: ServerResponse, deliveryId: string) => Promise<void> | void;

/** The route table's key for a request: a delivery's own paths are keyed with `:id`, and their id is returned beside. */
function routeKey(method: string, path: string): { key: string; deliveryId: string } {
  const delivery = DELIVERY_PATH.exec(path);
  if (!delivery) return { key: `${method} ${path}`, deliveryId: '' };
  return { key: `${method} /sandbox/deliveries/:id${delivery[2] ?? ''}`, deliveryId: delivery[1] ?? '' };
}

/**
 * The sandbox-only conveniences under `/sandbox/`: mint wallet tokens (CORS, for
 * shop pages on another origin), the test wallet script, the clock, and
 * read-only views of the ledger and webhook log, and the dashboard. Not part of the service; only
 * this machine's own tools and pages may use them (`checkControlCaller`,
 * `checkControlRequest`).
 */
export function createControlRoutes(state: SandboxState, options: ControlRouteOptions = {}) {
  const walletOrigins = new Set(options.walletOrigins);
  const allowCaller = createIpAllowList(options.controlAllowList, 'controlAllowList');
  const cors = (req: IncomingMessage) => walletCorsHeaders(req, walletOrigins);
  const dashboard = createDashboardRoutes(state);
  const routes: Record<string, Route> = {
    [`OPTIONS ${TOKEN_PATH}`]: (req, res) => {
      res.writeHead(204, cors(req));
      res.end();
    },
    [`POST ${TOKEN_PATH}`]: async (req, res) => {
      const body = parseControlInput(mintRequest, await jsonBody(req));
      const token = mintWalletToken(
        state.walletKeys,
        { gatewayId: state.credentials.gatewayId, merchantId: state.credentials.merchantId },
        state.clock.now(),
        {
          ...(body.gateway === undefined ? {} : { gatewayId: body.gateway }),
          ...(body.gatewayMerchantId === undefined ? {} : { gatewayMerchantId: body.gatewayMerchantId }),
          ...(body.authMethod === undefined ? {} : { authMethod: body.authMethod }),
          ...(body.additional3dsRequired === undefined ? {} : { additional3dsRequired: body.additional3dsRequired }),
          ...(body.cardNetwork === undefined ? {} : { cardNetwork: body.cardNetwork }),
        },
      );
      sendJson(res, 201, { token }, cors(req));
    },
    'GET /sandbox/test-wallet.js': (_req, res) => {
      // Loaded by a classic <script src>, which needs no CORS.
      sendText(res, 200, 'text/javascript; charset=utf-8', testWalletScript(state.url));
    },
    'GET /sandbox/clock': (_req, res) => sendJson(res, 200, { now: state.clock.now() }),
    'POST /sandbox/clock/advance': async (req, res) => {
      state.clock.advance(parseControlInput(clockMove, await jsonBody(req)).ms);
      sendJson(res, 200, { now: state.clock.now() });
    },
    'POST /sandbox/clock/reset': (_req, res) => {
      state.clock.reset();
      sendJson(res, 200, { now: state.clock.now() });
    },
    'GET /sandbox/charges': (_req, res) => sendJson(res, 200, { charges: state.ledger.charges() }),
    'GET /sandbox/deliveries': (req, res) => {
      const { limit } = parseControlInput(deliveryList, queryParameters(req));
      sendJson(res, 200, { deliveries: limit === undefined ? state.deliverer.deliveries() : state.deliverer.recent(limit) });
    },
    'GET /sandbox/deliveries/:id': (_req, res, deliveryId) => sendJson(res, 200, { delivery: state.deliverer.find(deliveryId) }),
    'POST /sandbox/deliveries/:id/resend': (_req, res, deliveryId) => {
      sendJson(res, 201, { delivery: state.deliverer.resend(deliveryId) });
    },
    'POST /sandbox/trigger': async (req, res) => sendJson(res, 201, { delivery: trigger(state, await jsonBody(req)) }),
  };

  /** Handles `/sandbox/…` paths; false when the path is not one of them. */
  async function handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    if (!path.startsWith('/sandbox/')) return false;
    const { key, deliveryId } = routeKey(req.method ?? '', path);
    const route = routes[key];
    try {
      checkControlCaller(req, allowCaller);
      if (dashboard.owns(path)) {
        // Its buttons post forms, checked by Origin instead of the JSON rule (see checkSameOrigin).
        checkControlHost(req, state.url);
        await dashboard.handle(req, res, path);
        return true;
      }
      if (!route) throw new SandboxRefusal('R04', `no sandbox route ${req.method ?? ''} ${path}`);
      checkControlRequest(req, state.url);
      await route(req, res, deliveryId);
    } catch (error) {
      if (!(error instanceof SandboxRefusal)) options.reportError?.(error);
      const refusal = error instanceof SandboxRefusal ? error : new SandboxRefusal('E01', 'internal error');
      const issues = refusal.data.issues === undefined ? {} : { issues: refusal.data.issues };
      sendJson(res, refusal.status, { error: { code: refusal.code, message: refusal.message, ...issues } }, path === TOKEN_PATH ? cors(req) : {});
    }
    return true;
  }

  return { handle };
}
