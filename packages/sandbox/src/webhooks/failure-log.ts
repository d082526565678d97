import { escapeControls } from '../commands/format';
import type { Delivery, DeliveryAttempt } from './deliveries';
import { diagnoseAttempt, diagnosisText } from './diagnosis';

/**
 * The log line of a failed attempt, or undefined when it is not logged: the
 * first failure of a delivery says why (and that retries follow), the last
 * says it gave up; the retries between add nothing a developer must read.
 * Escaped for a terminal: the URL and the receiver's answer are not the sandbox's.
 */
export function deliveryFailureLine(delivery: Delivery, attempt: DeliveryAttempt, dashboardUrl: string): string | undefined {
  const n = delivery.attempts.indexOf(attempt) + 1;
  const last = attempt.retryInMs === undefined;
  if (n !== 1 && !last) return undefined;
  const order = typeof delivery.payload.referenceOrderId === 'string' ? `, order ${delivery.payload.referenceOrderId}` : '';
  const next = last ? (n === 1 ? 'Not retried' : `Gave up after ${n} attempts`) : `Retrying in ${attempt.retryInMs} ms`;
  return escapeControls(
    `paymount sandbox: webhook ${delivery.event} delivery ${delivery.deliveryId}${order} to ${delivery.url}, attempt ${n} failed: ` +
      `${diagnosisText(diagnoseAttempt(attempt, delivery.url))}. ${next}; every attempt is on the dashboard at ${dashboardUrl}`,
  );
}
