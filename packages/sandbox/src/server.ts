import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServiceRoutes, readServiceBody } from './api/service-routes';
import { CallLog } from './call-log';
import { notifyClosed } from './charging';
import { checkSandboxOptions } from './check-options';
import { createSandboxClock, type SandboxClock } from './clock';
import { createControlRoutes } from './control/routes';
import { createCredentials, type SandboxCredentials } from './credentials';
import { refusalReply, SandboxRefusal, type EnvelopeReply } from './envelope';
import { FaultPlan, type ActiveFault, type FaultKind, type FaultSpec } from './faults';
import { createHostedPageRoutes } from './hosted-page/routes';
import { callerAddress, sendJson, sendText } from './http-io';
import { createIpAllowList } from './ip-allow-list';
import { Ledger, type Charge, type Refund } from './ledger';
import type { SandboxOptions } from './options';
import { DEFAULT_RATE_LIMIT, RateLimiter } from './rate-limit';
import { RequestIdWindow } from './request-ids';
import { SessionStore } from './sessions';
import type { SandboxState } from './state';
import { createCertificate, TLS_MIN_VERSION } from './tls';
import { trigger, type TriggerOptions } from './trigger';
import { createWalletTokenKeys, mintWalletToken, type MintWalletTokenOptions } from './wallet-token';
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS, DEFAULT_WEBHOOK_TIMEOUT_MS, WebhookDeliverer, type Delivery, type DeliveryAttempt } from './webhooks/deliveries';
import type { WebhookEvent } from './webhooks/event-name';
import { deliveryFailureLine } from './webhooks/failure-log';
import { DASHBOARD_PATH } from './dashboard/routes';

const DUPLICATE_WINDOW_MS = 10 * 60_000;
const EXPIRY_SWEEP_MS = 10_000;

export interface SandboxClientOptions {
  apiKey: string;
  baseUrl: string;
  appId: string;
  merchantId: string;
  localDevelopment: true;
  clock: { now(): number };
  ca?: string;
}

export interface Sandbox extends SandboxCredentials {
  /** Base URL of the service, e.g. `http://127.0.0.1:40123` (no trailing slash). */
  url: string;
  /**
   * The dashboard, e.g. `http://127.0.0.1:40123/sandbox/dashboard`: the service
   * calls answered (refusals first, with their code and fix), sessions,
   * payments, refunds and every webhook delivery with why it failed, live,
   * with resend, trigger and expire buttons. Open it in a browser on this machine.
   */
  dashboardUrl: string;
  /** The key to configure a client with: the test environment's. */
  apiKey: string;
  /** PEM of the certificate to trust, when serving HTTPS. */
  ca?: string;
  /** Service time: move it to expire sessions or leave the timestamp window without waiting. */
  clock: SandboxClock;
  /**
   * What a paymount client needs to talk to this sandbox:
   * `createPaymentClient({ ...sandbox.clientOptions(), logger })`. It opts in to
   * local development (plain-HTTP loopback, local notify URLs) and reads time
   * from the sandbox's clock, so moving that clock keeps requests in the window.
   */
  clientOptions(): SandboxClientOptions;
  /** Every payment processed, in order (declined ones with transactionStatus F). */
  charges(): Charge[];
  /** Every refund processed, in order (declined ones with transactionStatus F, which refunded nothing). */
  refunds(): Refund[];
  /** The webhook delivery log, with every attempt. */
  deliveries(): Delivery[];
  /**
   * Makes the service produce `event` for real — a wallet payment (succeeded or
   * declined), a hosted session expired unpaid, or a paid payment and its
   * refund (succeeded or declined) — and sends its signed webhook to
   * `options.forwardTo` (local http URLs allowed, for this purpose only),
   * with the usual retries. Resolves with the delivery once it is delivered or
   * out of attempts: its attempts carry the receiver's statuses and answers.
   * Rejects with a SandboxRefusal (nothing created) on bad options.
   */
  trigger(event: WebhookEvent, options: TriggerOptions): Promise<Delivery>;
  /**
   * Sends a logged delivery again: the same URL and body bytes (so the same
   * signature and signed notifyTime), a fresh delivery id and X-Timestamp.
   * Resolves like `trigger`; rejects with a SandboxRefusal `D01` for an id not
   * in the log.
   */
  resend(deliveryId: string): Promise<Delivery>;
  /** Resolves when no webhook delivery is pending any more. */
  waitForDeliveries(timeoutMs?: number): Promise<void>;
  /** A wallet token for this sandbox (defaults: CRYPTOGRAM_3DS, this gateway and merchant). */
  mintWalletToken(options?: MintWalletTokenOptions): string;
  /** Makes the next matching service request(s) misbehave. */
  injectFault(fault: FaultSpec): void;
  /** Forgets injected and random faults. */
  clearFaults(): void;
  /** How many service requests each fault kind has hit since the sandbox started (a reliability run's tally). */
  faultsApplied(): Partial<Record<FaultKind, number>>;
  close(): Promise<void>;
}

/** Clock moves also sweep sessions, so an expiry is seen (and its `C` webhook sent) as soon as time passes it. */
function sweepingClock(base: SandboxClock, sweep: () => void): SandboxClock {
  return {
    now: () => base.now(),
    advance(ms) {
      base.advance(ms);
      sweep();
    },
    set(ms) {
      base.set(ms);
      sweep();
    },
    reset() {
      base.reset();
      sweep();
    },
  };
}

/** The lines `announce` writes at start: the URLs and the webhook secret a developer needs for a test delivery. */
export function announcementLines(url: string, webhookSecret: string): string {
  return [
    `paymount sandbox: the payment service for development listens at ${url}`,
    `  dashboard (sessions, payments, every webhook delivery): ${url}${DASHBOARD_PATH}`,
    `  webhook secret (a test value; sign test deliveries with it): ${webhookSecret}`,
    // npx finds the bin where the package is installed, and the repository's launcher in a clone of it.
    `  send a test webhook: npx paymount-sandbox trigger payment.succeeded --forward-to <your webhook URL> --sandbox-url ${url}`,
  ].join('\n');
}

function announceOnStart(options: SandboxOptions, url: string, webhookSecret: string): void {
  const environment = process.env['NODE_ENV'];
  if (!(options.announce ?? (environment !== 'production' && environment !== 'test')) || options.log === false) return;
  // eslint-disable-next-line no-console
  (options.log ?? ((line: string) => console.info(line)))(announcementLines(url, webhookSecret));
}

/** The log line of a failed delivery attempt goes to `options.log` (console.warn by default). */
function failureLogger(options: SandboxOptions, state: () => SandboxState): ((delivery: Delivery, attempt: DeliveryAttempt) => void) | undefined {
  // A developer must see a refused delivery without configuring anything.
  // eslint-disable-next-line no-console
  const log = options.log === undefined ? (line: string) => console.warn(line) : options.log;
  if (log === false) return undefined;
  return (delivery, attempt) => {
    const line = deliveryFailureLine(delivery, attempt, `${state().url}${DASHBOARD_PATH}`);
    if (line !== undefined) log(line);
  };
}

function buildState(options: SandboxOptions): SandboxState {
  const credentials = createCredentials(options.credentials);
  const onAttemptFailed = failureLogger(options, () => state);
  const base = createSandboxClock(options.clock);
  const clock = sweepingClock(base, () => state.sessions.expireDue(base.now()));
  const deliverer = new WebhookDeliverer({
    secret: credentials.webhookSecret,
    retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
    timeoutMs: options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    clock: base,
    ...(onAttemptFailed ? { onAttemptFailed } : {}),
  });
  const state: SandboxState = {
    credentials,
    clock,
    url: '',
    ledger: new Ledger(),
    sessions: new SessionStore((session) => notifyClosed(state, session)),
    deliverer,
    calls: new CallLog(),
    walletKeys: createWalletTokenKeys(),
    requestIds: new RequestIdWindow(DUPLICATE_WINDOW_MS),
    rateLimiter: options.rateLimit === false ? undefined : new RateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT),
    allowIp: createIpAllowList(options.ipAllowList),
    faults: new FaultPlan(options.faults),
    allowLocalNotifyUrl: options.allowLocalNotifyUrl ?? false,
    merchantName: options.merchantName ?? 'Sandbox shop',
    bodyLimitBytes: options.bodyLimitBytes ?? 1024 * 1024,
  };
  return state;
}

/** A path of plain segments, such as every service route's: the URL parser would return it unchanged. */
const PLAIN_PATH = /^(?:\/[\w-]+)+$/;

/** The request's path without its query, as the URL parser reads it; a plain one skips the parser, about 1.5 µs a request. */
function pathOf(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  return PLAIN_PATH.test(path) ? path : new URL(url, 'http://sandbox.invalid').pathname;
}

const NON_JSON_PAGE = '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';

/** Starts the sandbox on 127.0.0.1 (by default) and resolves once it listens; rejects with a SandboxOptionsError naming every broken option. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkSandboxOptions(options);
  const state = buildState(options);
  // A bug in the emulator must not pass silently: without onError it goes to stderr.
  // eslint-disable-next-line no-console
  const reportError = options.onError ?? ((error: unknown) => console.error('paymount sandbox: internal error', error));
  const service = createServiceRoutes(state, reportError);
  const hosted = createHostedPageRoutes(state);
  const control = createControlRoutes(state, {
    walletOrigins: options.walletOrigins ?? [],
    reportError,
    ...(options.controlAllowList === undefined ? {} : { controlAllowList: options.controlAllowList }),
  });
  const faultTimers = new Set<NodeJS.Timeout>();

  /** Runs `work` after `ms`, unless the sandbox closes first. */
  function later(ms: number, work: () => void): void {
    const timer = setTimeout(() => {
      faultTimers.delete(timer);
      work();
    }, ms);
    faultTimers.add(timer);
  }

  function answer(res: ServerResponse, reply: EnvelopeReply): void {
    sendJson(res, reply.status, reply.envelope, reply.headers);
  }

  /** Applies a fault that acts after processing, or answers normally. */
  function deliver(req: IncomingMessage, res: ServerResponse, reply: EnvelopeReply, fault: ActiveFault | undefined): void {
    if (fault?.kind === 'reset-after') {
      req.socket.destroy();
    } else if (fault?.kind === 'delay') {
      later(fault.delayMs, () => {
        if (!res.destroyed) answer(res, reply);
      });
    } else {
      answer(res, reply);
    }
  }

  /**
   * The `late` fault: the request is received now (its body read) and
   * processed `delayMs` later, through the same gate and with the same
   * effects as one arriving then; its connection is held without an answer
   * meanwhile, and answered only if the caller still listens.
   */
  function processLate(req: IncomingMessage, res: ServerResponse, path: string, delayMs: number): void {
    const body = readServiceBody(req, state);
    // A body refused on arrival is answered when the request is processed, like any other.
    body.catch(() => {});
    // Node keeps the peer address once it has been read; the caller may have hung up by the time the allow-list asks for it.
    callerAddress(req);
    later(delayMs, () => {
      service.handle(req, path, body).then(
        (reply) => {
          if (!res.destroyed) answer(res, reply);
        },
        reportError,
      );
    });
  }

  async function onServiceRequest(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const fault = state.faults.next(path);
    if (fault?.kind === 'reset-before') return void req.socket.destroy();
    if (fault?.kind === 'http-500') return sendText(res, 500, 'text/plain; charset=utf-8', 'Internal Server Error');
    if (fault?.kind === 's04') {
      const headers: Record<string, string> = fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
      return answer(res, refusalReply(new SandboxRefusal('S04', 'call frequency limit exceeded (injected fault)', { headers })));
    }
    if (fault?.kind === 'non-json') return sendText(res, 200, 'text/html; charset=utf-8', NON_JSON_PAGE);
    if (fault?.kind === 'late') return processLate(req, res, path, fault.delayMs);
    deliver(req, res, await service.handle(req, path), fault);
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = pathOf(req.url ?? '/');
    try {
      if (path.startsWith('/v1/')) return await onServiceRequest(req, res, path);
      if (await hosted.handle(req, res, path)) return;
      if (await control.handle(req, res, path)) return;
      answer(res, refusalReply(new SandboxRefusal('R04', `no route ${path}`)));
    } catch (error) {
      if (!(error instanceof SandboxRefusal)) reportError(error);
      const refusal = error instanceof SandboxRefusal ? error : new SandboxRefusal('E01', 'internal error');
      if (!res.headersSent) answer(res, refusalReply(refusal));
      else res.destroy();
    }
  }

  const certificate = options.https ? createCertificate() : undefined;
  const listener = (req: IncomingMessage, res: ServerResponse) => void onRequest(req, res);
  const server: Server = certificate
    ? createHttpsServer({ key: certificate.key, cert: certificate.cert, minVersion: TLS_MIN_VERSION }, listener)
    : createHttpServer(listener);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  // A wildcard bind is reachable as localhost; checkout URLs must be addresses a browser can open.
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  state.url = `${certificate ? 'https' : 'http'}://${host}:${address.port}`;
  const sweep = setInterval(() => state.sessions.expireDue(state.clock.now()), EXPIRY_SWEEP_MS);
  sweep.unref();

  const { credentials } = state;
  announceOnStart(options, state.url, credentials.webhookSecret);
  return {
    ...credentials,
    url: state.url,
    dashboardUrl: `${state.url}${DASHBOARD_PATH}`,
    apiKey: credentials.testApiKey,
    ...(certificate ? { ca: certificate.cert } : {}),
    clock: state.clock,
    clientOptions: () => ({
      apiKey: credentials.testApiKey,
      baseUrl: state.url,
      appId: credentials.appId,
      merchantId: credentials.merchantId,
      localDevelopment: true,
      clock: state.clock,
      ...(certificate ? { ca: certificate.cert } : {}),
    }),
    charges: () => state.ledger.charges(),
    refunds: () => state.ledger.refunds(),
    deliveries: () => state.deliverer.deliveries(),
    trigger: async (event, triggerOptions) => state.deliverer.settled(trigger(state, { ...triggerOptions, event }).deliveryId),
    resend: async (deliveryId) => state.deliverer.settled(state.deliverer.resend(deliveryId).deliveryId),
    waitForDeliveries: (timeoutMs) => state.deliverer.waitForDeliveries(timeoutMs),
    mintWalletToken: (mintOptions) =>
      mintWalletToken(state.walletKeys, { gatewayId: credentials.gatewayId, merchantId: credentials.merchantId }, state.clock.now(), mintOptions),
    injectFault: (fault) => state.faults.inject(fault),
    clearFaults: () => state.faults.clear(),
    faultsApplied: () => state.faults.applied(),
    async close() {
      clearInterval(sweep);
      for (const timer of faultTimers) clearTimeout(timer);
      faultTimers.clear();
      state.deliverer.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
