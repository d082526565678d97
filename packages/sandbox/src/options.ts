import type { TimeSource } from './clock';
import type { SandboxCredentials } from './credentials';
import type { RandomFaultOptions } from './faults';
import type { RateLimitOptions } from './rate-limit';

export interface SandboxOptions {
  /** Port to listen on; default 0 (a free port). */
  port?: number;
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Serve HTTPS (TLS 1.2 minimum) with a certificate generated at start; its PEM is `sandbox.ca`. */
  https?: boolean;
  /** Where service time comes from; default real time. `sandbox.clock` moves it further. */
  clock?: TimeSource;
  /** Fixed credentials instead of random ones (any subset). */
  credentials?: Partial<SandboxCredentials>;
  /** Call-frequency limit answered with S04; default 100 calls per 1000 ms, `false` for none. */
  rateLimit?: RateLimitOptions | false;
  /** Delays between webhook attempts; default [1000, 2000, 4000, 8000, 16000] (so 6 attempts). */
  webhookRetryDelaysMs?: readonly number[];
  /** How long a webhook receiver has to answer; default 10 000 ms. */
  webhookTimeoutMs?: number;
  /** Caller addresses (exact or CIDR) allowed on the service routes; default everyone. */
  ipAllowList?: readonly string[];
  /**
   * Caller addresses (exact or CIDR) besides this machine's own that may use
   * the control routes (`/sandbox/*`: the clock, wallet tokens, triggers,
   * resends and the records). Default none: only callers from 127.0.0.1, ::1
   * or the address the sandbox listens on; any other gets `403 C02`. Open it
   * only to hosts you trust with the sandbox's clock and webhooks, e.g. the
   * host of a container the sandbox runs in.
   */
  controlAllowList?: readonly string[];
  /** Accept http(s)://localhost / 127.0.0.1 / [::1] notifyUrls (local development); default false: public HTTPS only. */
  allowLocalNotifyUrl?: boolean;
  /**
   * Page origins besides loopback ones (`http://localhost:*`, `127.0.0.1`,
   * `[::1]`, `*.localhost`) from which the test wallet may mint tokens: the
   * token route's CORS. Default none.
   */
  walletOrigins?: readonly string[];
  /** Seeded random faults on the service routes. */
  faults?: RandomFaultOptions;
  /** Largest accepted request body; default 1 MiB. */
  bodyLimitBytes?: number;
  /**
   * Where the sandbox writes what a developer must see without asking for it:
   * a webhook delivery whose first attempt failed, with why in words and the
   * fix, and the attempt it gave up on. Default: `console.warn`; `false` for
   * none (a test that makes deliveries fail on purpose).
   */
  log?: ((line: string) => void) | false;
  /**
   * Write, once at start, where the sandbox listens, its dashboard and the
   * webhook secret it signs deliveries with (to `log`, else `console.info`),
   * so a test delivery (`signWebhook`, `paymount-sandbox trigger`) can be made
   * without code. Default: unless `NODE_ENV` is `production` or `test`.
   */
  announce?: boolean;
  /** The shop's name on the hosted checkout page; default "Sandbox shop". */
  merchantName?: string;
  /** Told about unexpected errors (answered as E01); default writes them to stderr. */
  onError?: (error: unknown) => void;
}
