import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { randomUUID } from 'node:crypto';
import type { TimeSource } from '../clock';
import { signatureOf } from './signature';

export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 16000];
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

export interface DeliveryAttempt {
  /** ISO 8601, service time. */
  at: string;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why the attempt failed without a status (connection refused, time-out, ...). */
  error?: string;
}

export interface Delivery {
  deliveryId: string;
  url: string;
  /** The exact bytes sent and signed. */
  body: string;
  payload: Record<string, unknown>;
  state: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
}

export interface DelivererOptions {
  secret: string;
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
    const delivery: Delivery = { deliveryId: randomUUID(), url, body: JSON.stringify(payload), payload, state: 'pending', attempts: [] };
    this.log.push(delivery);
    if (this.log.length > (this.options.maxLogEntries ?? 10_000)) this.log.shift();
    this.pending += 1;
    this.schedule(delivery, 0);
    return delivery;
  }

  deliveries(): Delivery[] {
    return structuredClone(this.log);
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

  private schedule(delivery: Delivery, delayMs: number): void {
    if (this.closed) return this.settle(delivery, 'failed');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(delivery);
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(delivery: Delivery): Promise<void> {
    const attempt: DeliveryAttempt = { at: new Date(this.options.clock.now()).toISOString() };
    delivery.attempts.push(attempt);
    try {
      attempt.status = await this.post(delivery);
    } catch (error) {
      attempt.error = error instanceof Error ? error.message : String(error);
    }
    if (attempt.status === 200) return this.settle(delivery, 'delivered');
    const delay = this.options.retryDelaysMs[delivery.attempts.length - 1];
    if (delay === undefined || this.closed) return this.settle(delivery, 'failed');
    this.schedule(delivery, delay);
  }

  private settle(delivery: Delivery, state: 'delivered' | 'failed'): void {
    if (delivery.state !== 'pending') return;
    delivery.state = state;
    this.pending -= 1;
    if (this.pending === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const waiter of waiters) waiter();
    }
  }

  /** One POST; resolves with the status once the whole answer is read, within the time-out. */
  private post(delivery: Delivery): Promise<number> {
    const url = new URL(delivery.url);
    const controller = new AbortController();
    this.inFlight.add(controller);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => controller.abort(new Error(`no answer within ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
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
          // The answer's body means nothing to the sender; it is drained so the time-out covers the whole read.
          res.resume();
          res.on('end', () => finish(() => resolve(res.statusCode ?? 0)));
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
