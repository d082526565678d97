import { callRoute, routeUrl } from './route-call';

/** `GET status`'s answer: where the order's payment stands. */
export interface OrderStatus {
  orderId: string;
  status: 'unpaid' | 'pending' | 'succeeded' | 'failed' | 'closed';
  payable: boolean;
  transactionId?: string;
  updatedAt: string | null;
}

export interface FollowOrderStatusOptions {
  /** Where the payment routes are mounted, e.g. `/payments`. */
  mount: string;
  orderId: string;
  /** Called with every answer. */
  onStatus?: (status: OrderStatus) => void;
  /** When to stop following. Default: the payment is final (succeeded, failed, closed) or the order takes no payment. */
  until?: (status: OrderStatus) => boolean;
  /** The first wait, doubled after each poll up to `maxDelayMs`. Default 1 s, up to 15 s. */
  delayMs?: number;
  maxDelayMs?: number;
  /** Stops after waiting this long in all, so a page left open stops asking. Default 15 minutes. */
  giveUpAfterMs?: number;
  /** Waits `ms`: `setTimeout` by default; a test drives its own clock. */
  wait?: (ms: number) => Promise<void>;
}

export interface FollowedOrderStatus {
  /** The status `until` accepted, or `undefined` once stopped, given up or refused (an unknown order). */
  done: Promise<OrderStatus | undefined>;
  stop(): void;
}

const isFinal = (state: OrderStatus) => !state.payable || (state.status !== 'unpaid' && state.status !== 'pending');

/** A refusal asking again will not change (an unknown order, a guard): any 4xx but a time-out or a rate limit. */
const isLasting = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

/**
 * Polls `GET status` while the order's payment can still change on the
 * server (a webhook, a reconciliation), with a backoff that stops by itself.
 * A poll that fails for a passing reason is retried at the next one.
 */
export function followOrderStatus(options: FollowOrderStatusOptions): FollowedOrderStatus {
  const { until = isFinal, maxDelayMs = 15_000, giveUpAfterMs = 900_000 } = options;
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let stopped = false;
  let stop!: () => void;
  const stopping = new Promise<undefined>((resolve) => {
    stop = () => {
      stopped = true;
      resolve(undefined);
    };
  });
  const follow = async (): Promise<OrderStatus | undefined> => {
    for (let delay = options.delayMs ?? 1000, waited = 0; waited < giveUpAfterMs; delay = Math.min(delay * 2, maxDelayMs)) {
      await wait(delay);
      waited += delay;
      if (stopped) return undefined;
      const answer = await callRoute<OrderStatus>(routeUrl(options.mount, 'status', options.orderId));
      if (stopped) return undefined;
      if (answer.ok) {
        options.onStatus?.(answer.body);
        if (until(answer.body)) return answer.body;
      } else if (isLasting(answer.error.status)) {
        return undefined;
      }
    }
    return undefined;
  };
  return { done: Promise.race([follow(), stopping]), stop };
}
