/**
 * Fault injection for testing clients against a misbehaving service. Faults
 * apply to the `/v1/` service routes only.
 *
 * - `http-500`: answer HTTP 500 with a plain-text body (no envelope, as a failing
 *   front server would) without processing.
 * - `reset-before`: destroy the connection before processing (nothing happened).
 * - `reset-after`: process the request (a payment is charged) and destroy the
 *   connection instead of answering: the outcome is unknown to the client.
 * - `delay`: process the request, then hold the answer `delayMs` (default
 *   31 000, past the recommended 30-second call time-out of docs/service-contract.md#limits).
 * - `non-json`: answer 200 with an HTML page instead of a JSON envelope, without processing.
 * - `s04`: answer HTTP 429 with code S04 without processing; with `Retry-After`
 *   only when `retryAfterSeconds` is given.
 * - `late`: receive the request but process it only `delayMs` later, holding
 *   the connection without an answer meanwhile: a request still in flight, or
 *   queued inside the service, when the client gives up. Until it is processed
 *   the service knows nothing of it (a query answers T01); then it charges and
 *   notifies as if it had just arrived.
 */
export type FaultKind = 'http-500' | 'reset-before' | 'reset-after' | 'delay' | 'non-json' | 's04' | 'late';

export const FAULT_KINDS: readonly FaultKind[] = ['http-500', 'reset-before', 'reset-after', 'delay', 'non-json', 's04', 'late'];
export const DEFAULT_FAULT_DELAY_MS = 31_000;

export interface FaultSpec {
  kind: FaultKind;
  /** How many matching requests it hits; default 1. */
  times?: number;
  /** Only requests to this exact path (e.g. `/v1/checkout/sale`); default every service route. */
  path?: string;
  /** For `delay` (how long the answer is held) and `late` (how long until the request is processed). */
  delayMs?: number;
  /** For `s04`: the `Retry-After` header to send, in seconds (default none). */
  retryAfterSeconds?: number;
}

/** Seeded random faults for reliability suites: each service request is hit with probability `rate`. */
export interface RandomFaultOptions {
  seed: number;
  rate: number;
  kinds: readonly FaultKind[];
  delayMs?: number;
}

export interface ActiveFault {
  kind: FaultKind;
  delayMs: number;
  retryAfterSeconds?: number;
}

/** mulberry32: a tiny deterministic generator, so a failing seed can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function checkKind(kind: unknown): FaultKind {
  if (!FAULT_KINDS.includes(kind as FaultKind)) throw new TypeError(`fault kind must be one of ${FAULT_KINDS.join(', ')}`);
  return kind as FaultKind;
}

export class FaultPlan {
  private readonly appliedByKind = new Map<FaultKind, number>();
  private queue: Array<Required<Omit<FaultSpec, 'path' | 'retryAfterSeconds'>> & Pick<FaultSpec, 'path' | 'retryAfterSeconds'>> = [];
  private random: { next: () => number; options: RandomFaultOptions } | undefined;

  constructor(random?: RandomFaultOptions) {
    if (random) this.setRandom(random);
  }

  inject(spec: FaultSpec): void {
    const times = spec.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new TypeError('fault times must be an integer >= 1');
    const delayMs = spec.delayMs ?? DEFAULT_FAULT_DELAY_MS;
    if (!Number.isFinite(delayMs) || delayMs < 0) throw new TypeError('fault delayMs must be >= 0');
    const { retryAfterSeconds } = spec;
    if (retryAfterSeconds !== undefined && !(Number.isSafeInteger(retryAfterSeconds) && retryAfterSeconds >= 0)) {
      throw new TypeError('fault retryAfterSeconds must be an integer >= 0');
    }
    this.queue.push({
      kind: checkKind(spec.kind),
      times,
      delayMs,
      ...(spec.path === undefined ? {} : { path: spec.path }),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }

  setRandom(options: RandomFaultOptions | undefined): void {
    if (!options) {
      this.random = undefined;
      return;
    }
    this.random = { next: seededRandom(options.seed), options };
  }

  clear(): void {
    this.queue = [];
    this.random = undefined;
  }

  /** How many requests each kind has hit so far, injected and random alike; kept across `clear()`. */
  applied(): Partial<Record<FaultKind, number>> {
    return Object.fromEntries(this.appliedByKind);
  }

  /** The fault for this request, if any: injected ones first (in order), then the random mode. */
  next(path: string): ActiveFault | undefined {
    const fault = this.draw(path);
    if (fault) this.appliedByKind.set(fault.kind, (this.appliedByKind.get(fault.kind) ?? 0) + 1);
    return fault;
  }

  private draw(path: string): ActiveFault | undefined {
    const index = this.queue.findIndex((fault) => fault.path === undefined || fault.path === path);
    const injected = this.queue[index];
    if (injected) {
      injected.times -= 1;
      if (injected.times === 0) this.queue.splice(index, 1);
      const { kind, delayMs, retryAfterSeconds } = injected;
      return { kind, delayMs, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
    }
    if (!this.random) return undefined;
    const { next, options } = this.random;
    if (next() >= options.rate) return undefined;
    const kind = options.kinds[Math.floor(next() * options.kinds.length)] ?? options.kinds[0];
    return kind ? { kind, delayMs: options.delayMs ?? DEFAULT_FAULT_DELAY_MS } : undefined;
  }
}
