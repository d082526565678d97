import type { CallLog } from './call-log';
import type { SandboxClock } from './clock';
import type { SandboxCredentials } from './credentials';
import type { FaultPlan } from './faults';
import type { Ledger } from './ledger';
import type { RateLimiter } from './rate-limit';
import type { RequestIdWindow } from './request-ids';
import type { SessionStore } from './sessions';
import type { WalletTokenKeys } from './wallet-token';
import type { WebhookDeliverer } from './webhooks/deliveries';

/** Everything one running sandbox holds; the route modules read and change it. */
export interface SandboxState {
  credentials: SandboxCredentials;
  clock: SandboxClock;
  /** The base URL, known once the server listens. */
  url: string;
  ledger: Ledger;
  sessions: SessionStore;
  deliverer: WebhookDeliverer;
  /** The service calls answered, refused or not, for the dashboard. */
  calls: CallLog;
  walletKeys: WalletTokenKeys;
  requestIds: RequestIdWindow;
  rateLimiter: RateLimiter | undefined;
  allowIp: ((address: string) => boolean) | undefined;
  faults: FaultPlan;
  allowLocalNotifyUrl: boolean;
  /** The shop's name the hosted checkout page shows. */
  merchantName: string;
  bodyLimitBytes: number;
}
