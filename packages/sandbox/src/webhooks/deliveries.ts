import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { randomUUID } from 'node:crypto';
// Bundled into this package's build: the header paymount's routes mark their answers with, written once in core.
import { ROUTE_MARKER_HEADER } from '@paymount/core/internal';
import type { TimeSource } from '../clock';
import { SandboxRefusal } from '../envelope';
import { isFrameworkHeader } from './app-framework';
import { eventOf, type WebhookEvent } from './event-name';
import { signatureOf } from './signature';
import { isoTime } from '../iso-time';

export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 16000];
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of a receiver's answer the log keeps: enough to read an error message, never a large page. */
export const ANSWER_LIMIT_BYTES = 2048;

export interface DeliveryAttempt {
  /** ISO 8601, service time. */
  at: string;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why the attempt failed without a status (connection refused, time-out, ...). */
  error?: string;
  /**
   * The system's code of that failure (`ECONNREFUSED`, `ECONNRESET`,
   * `ENOTFOUND`, a TLS code...), or `ETIMEDOUT` when no complete answer came
   * within `webhookTimeoutMs`.
   */
  errorCode?: string;
  /** The start of the receiver's answer body (UTF-8, at most ANSWER_LIMIT_BYTES), when it sent one. */
  answer?: string;
  /** How long the attempt took, from sending to the end of the answer (or the failure), in real milliseconds. */
  durationMs?: number;
  /**
   * The paymount route that answered (its `x-paymount-route` header, e.g.
   * `webhook`); absent when the app answered before any paymount route ran.
   */
  paymountRoute?: string;
  /** The answer's headers that tell which framework answered (content-type, x-powered-by...: isFrameworkHeader), read by the diagnosis. */
  answerHeaders?: Record<string, string>;
  /** Set when another attempt follows: the delay before it. */
  retryInMs?: number;
}

export interface Delivery {
  deliveryId: string;
  url: string;
  /** The event the payload reports (`payment.succeeded`, ...), or `unknown`. */
  event: WebhookEvent | 'unknown';
  /** The exact bytes sent and signed. */
  body: string;
  payload: Record<string, unknown>;
  state: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
  /** The delivery this one resends, same body, when it is a resend. */
  resentFrom?: string;
}

export interface DelivererOptions {
  secret: string;
  /** Told about each attempt that failed, once its outcome is recorded (`retryInMs` set when another follows). */
  onAttemptFailed?: (delivery: Delivery, attempt: DeliveryAttempt) => void;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  clock: TimeSource;
  maxLogEntries?: number;
}

/**
 * Sends signed webhook deliveries off the request path and retries each on any
 * non-200 answer or time-out, after each delay of `retryDelaysMs` in turn
 * (so at most `retryDelaysMs.length + 1` attempts). Keeps a bounded log.
 */
export class WebhookDeliverer {
  private readonly log: Delivery[] = [];
  private readonly byId = new Map<string, Delivery>();
  private readonly settleWaiters = new Map<string, Array<(delivery: Delivery) => void>>();
  /** Deliveries queued since start: `sentBy` counts the ones a piece of code queued. */
  private sentTotal = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<AbortController>();
  private pending = 0;
  private idleWaiters: Array<() => void> = [];
  private closed = false;

  constructor(private readonly options: DelivererOptions) {
    for (const delay of options.retryDelaysMs) {
      if (!Number.isFinite(delay) || delay < 0) throw new TypeError('webhookRetryDelaysMs must be non-negative numbers');
    }
  }

  send(url: string, payload: Record<string, unknown>): Delivery {
    return this.queue({ url, event: eventOf(payload), body: JSON.stringify(payload), payload });
  }

  /**
   * Sends a logged delivery again as a new one: the same URL and the very same
   * body bytes (so the same signature, and the same signed notifyTime), a
   * fresh delivery id and X-Timestamp. Refuses (D01) an id the log does not hold.
   */
  resend(deliveryId: string): Delivery {
    const original = this.byId.get(deliveryId);
    if (!original) throw unknownDelivery(deliveryId);
    const { url, event, body, payload } = original;
    return structuredClone(this.queue({ url, event, body, payload: structuredClone(payload), resentFrom: deliveryId }));
  }

  /** The ids of the deliveries `run` queues (synchronously), oldest first. */
  sentBy(run: () => void): string[] {
    const before = this.sentTotal;
    run();
    const count = Math.min(this.sentTotal - before, this.log.length);
    return this.log.slice(this.log.length - count).map((delivery) => delivery.deliveryId);
  }

  deliveries(): Delivery[] {
    return structuredClone(this.log);
  }

  /** The last `limit` deliveries, oldest first. */
  recent(limit: number): Delivery[] {
    return structuredClone(this.log.slice(Math.max(0, this.log.length - limit)));
  }

  /** One delivery as it stands; refuses (D01) an id the log does not hold. */
  find(deliveryId: string): Delivery {
    const delivery = this.byId.get(deliveryId);
    if (!delivery) throw unknownDelivery(deliveryId);
    return structuredClone(delivery);
  }

  /** Resolves with the delivery once it is delivered or out of attempts (or the sandbox closes). */
  settled(deliveryId: string): Promise<Delivery> {
    const delivery = this.byId.get(deliveryId);
    if (!delivery) return Promise.reject(unknownDelivery(deliveryId));
    if (delivery.state !== 'pending') return Promise.resolve(structuredClone(delivery));
    return new Promise((resolve) => {
      const waiters = this.settleWaiters.get(deliveryId) ?? [];
      waiters.push((settled) => resolve(structuredClone(settled)));
      this.settleWaiters.set(deliveryId, waiters);
    });
  }

  /** Resolves once no delivery is pending (delivered or out of retries); rejects after `timeoutMs`. */
  waitForDeliveries(timeoutMs = 30_000): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.idleWaiters = this.idleWaiters.filter((waiter) => waiter !== done);
        reject(new Error(`webhook deliveries still pending after ${timeoutMs} ms: ${this.pending}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.idleWaiters.push(done);
    });
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
    for (const delivery of this.log) if (delivery.state === 'pending') this.settle(delivery, 'failed');
  }

  private queue(fields: Pick<Delivery, 'url' | 'event' | 'body' | 'payload'> & { resentFrom?: string }): Delivery {
    const { resentFrom, ...rest } = fields;
    const delivery: Delivery = { deliveryId: randomUUID(), ...rest, state: 'pending', attempts: [], ...(resentFrom ? { resentFrom } : {}) };
    this.log.push(delivery);
    this.byId.set(delivery.deliveryId, delivery);
    this.sentTotal += 1;
    if (this.log.length > (this.options.maxLogEntries ?? 10_000)) {
      const oldest = this.log.shift();
      if (oldest) this.byId.delete(oldest.deliveryId);
    }
    this.pending += 1;
    this.schedule(delivery, 0);
    return delivery;
  }

  private schedule(delivery: Delivery, delayMs: number): void {
    if (this.closed) return this.settle(delivery, 'failed');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(delivery);
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(delivery: Delivery): Promise<void> {
    const attempt: DeliveryAttempt = { at: isoTime(this.options.clock.now()) };
    delivery.attempts.push(attempt);
    const started = performance.now();
    try {
      const { status, answer, paymountRoute, answerHeaders } = await this.post(delivery);
      attempt.status = status;
      if (answer !== '') attempt.answer = answer;
      if (paymountRoute !== undefined) attempt.paymountRoute = paymountRoute;
      if (Object.keys(answerHeaders).length > 0) attempt.answerHeaders = answerHeaders;
    } catch (error) {
      attempt.error = error instanceof Error ? error.message : String(error);
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code === 'string') attempt.errorCode = code;
    }
    attempt.durationMs = Math.round(performance.now() - started);
    if (attempt.status === 200) return this.settle(delivery, 'delivered');
    const delay = this.options.retryDelaysMs[delivery.attempts.length - 1];
    if (delay !== undefined && !this.closed) attempt.retryInMs = delay;
    // Closing the sandbox aborts attempts in flight: those are not the receiver's failures.
    if (!this.closed) this.options.onAttemptFailed?.(delivery, attempt);
    if (attempt.retryInMs === undefined) return this.settle(delivery, 'failed');
    this.schedule(delivery, attempt.retryInMs);
  }

  private settle(delivery: Delivery, state: 'delivered' | 'failed'): void {
    if (delivery.state !== 'pending') return;
    delivery.state = state;
    this.pending -= 1;
    const waiters = this.settleWaiters.get(delivery.deliveryId);
    this.settleWaiters.delete(delivery.deliveryId);
    for (const waiter of waiters ?? []) waiter(delivery);
    if (this.pending === 0) {
      const idle = this.idleWaiters;
      this.idleWaiters = [];
      for (const waiter of idle) waiter();
    }
  }

  /** One POST; resolves with the status and the start of the answer once the whole answer is read, within the time-out. */
  private post(delivery: Delivery): Promise<{ status: number; answer: string; paymountRoute: string | undefined; answerHeaders: Record<string, string> }> {
    const url = new URL(delivery.url);
    const controller = new AbortController();
    this.inFlight.add(controller);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => controller.abort(Object.assign(new Error(`no answer within ${this.options.timeoutMs} ms`), { code: 'ETIMEDOUT' })),
        this.options.timeoutMs,
      );
      const finish = (fn: () => void) => {
        clearTimeout(timer);
        this.inFlight.delete(controller);
        fn();
      };
      const req = send(
        url,
        {
          method: 'POST',
          signal: controller.signal,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(delivery.body),
            'x-signature': signatureOf(delivery.body, this.options.secret),
            'x-client-request-id': delivery.deliveryId,
            'x-timestamp': String(this.options.clock.now()),
            'user-agent': 'paymount-sandbox-webhooks',
          },
          ...(url.protocol === 'https:' ? { minVersion: 'TLSv1.2' as const } : {}),
        },
        (res: IncomingMessage) => {
          // Read to the end so the time-out covers the whole answer; only its start is kept, for the developer to read.
          const kept: Buffer[] = [];
          let keptBytes = 0;
          res.on('data', (chunk: Buffer) => {
            if (keptBytes >= ANSWER_LIMIT_BYTES) return;
            kept.push(chunk.subarray(0, ANSWER_LIMIT_BYTES - keptBytes));
            keptBytes += Math.min(chunk.length, ANSWER_LIMIT_BYTES - keptBytes);
          });
          const marker = res.headers[ROUTE_MARKER_HEADER];
          const paymountRoute = Array.isArray(marker) ? marker[0] : marker;
          const answerHeaders = Object.fromEntries(
            Object.entries(res.headers).flatMap(([name, value]) => (isFrameworkHeader(name) && value !== undefined ? [[name, String(value)]] : [])),
          );
          res.on('end', () =>
            finish(() => resolve({ status: res.statusCode ?? 0, answer: Buffer.concat(kept).toString('utf8'), paymountRoute, answerHeaders })),
          );
          res.on('error', (error) => finish(() => reject(error)));
          res.on('close', () => {
            if (!res.complete) finish(() => reject(controller.signal.reason ?? new Error('connection closed before the answer was complete')));
          });
        },
      );
      req.on('error', (error) => finish(() => reject(controller.signal.aborted ? controller.signal.reason : error)));
      req.end(delivery.body);
    });
  }
}

function unknownDelivery(deliveryId: string): SandboxRefusal {
  return new SandboxRefusal('D01', `no webhook delivery ${JSON.stringify(deliveryId.slice(0, 64))} in the delivery log (unknown, or dropped from the bounded log)`);
}
