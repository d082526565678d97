import type { QueuedAppConfig } from './queued-app';

export interface HandlerBehaviour {
  /** How long the handler works. */
  handlerMs: number;
  /** Where its effect falls: before the work (so a kill mid-work comes after it) or after. */
  effectAt: 'start' | 'end';
  /** Fail while `<namespace>:t:broken` exists (a dependency that is down). */
  failWhileBroken?: boolean;
}

export interface MerchantProcessConfig {
  app: QueuedAppConfig;
  behaviour: HandlerBehaviour;
}

export type ProcessMessage = { kind: 'listening'; routesUrl: string | undefined } | { kind: 'started'; key: string; pid: number };

/** The Redis keys the handler records in. */
export function recordKeys(namespace: string) {
  return { runs: `${namespace}:t:runs`, effects: `${namespace}:t:effects`, keyed: `${namespace}:t:keyed`, broken: `${namespace}:t:broken` };
}
