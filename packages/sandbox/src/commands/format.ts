import type { Delivery, DeliveryAttempt } from '../webhooks/deliveries';
import { diagnoseAttempt, diagnosisText, isFailure } from '../webhooks/diagnosis';

/**
 * `text` with every control character (C0, DEL, C1) written as its `\xNN`
 * escape. What the commands print comes from the sandbox's records: URLs and
 * answers a receiver or a caller of the service chose, which could otherwise
 * carry escape sequences that clear, retitle or rewrite the developer's terminal.
 */
export function escapeControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * `value` as one line of JSON for machines. JSON.stringify escapes C0
 * characters only: DEL and the C1 ones (a terminal may read U+009B as CSI) get
 * their `\u00NN` escape too, which leaves the same JSON value.
 */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value).replace(/[\u007f-\u009f]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)}\n`;
}

/** A receiver's answer on one line, escaped and cut to `max` characters. */
function printable(text: string, max: number): string {
  const line = escapeControls(text.trim());
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** What one attempt came to: the status and the answer's start, or why there was none. */
export function attemptOutcome(attempt: DeliveryAttempt, answerWidth = 200): string {
  if (attempt.status === undefined) return `no answer: ${printable(attempt.error ?? 'unknown error', answerWidth)}`;
  const answer = attempt.answer === undefined ? '' : ` ${printable(attempt.answer, answerWidth)}`;
  return `HTTP ${attempt.status}${answer}`;
}

/** The progress line of attempt number `n`. */
export function attemptLine(attempt: DeliveryAttempt, n: number): string {
  const retry = attempt.retryInMs === undefined ? '' : ` (retrying in ${attempt.retryInMs} ms)`;
  return `  attempt ${n} at ${escapeControls(attempt.at)}: ${attemptOutcome(attempt)}${retry}\n`;
}

/** Why the delivery's last attempt failed, in words with the fix; undefined when it did not fail. */
export function lastFailure(delivery: Delivery): string | undefined {
  const last = delivery.attempts.at(-1);
  const diagnosis = last === undefined ? undefined : diagnoseAttempt(last, delivery.url);
  return diagnosis !== undefined && isFailure(diagnosis) ? diagnosisText(diagnosis) : undefined;
}

/** A settled delivery for a human: what was sent where, and the receiver's last answer (progress showed every attempt). */
export function deliverySummary(delivery: Delivery): string {
  const { payload } = delivery;
  const last = delivery.attempts.at(-1);
  const fields: Array<[string, unknown]> = [
    ['deliveryId', delivery.deliveryId],
    ['event', delivery.event],
    ['url', delivery.url],
    ['state', delivery.state],
    ['transactionId', payload.transactionId],
    ['referenceOrderId', payload.referenceOrderId],
    ['resentFrom', delivery.resentFrom],
    ['attempts', delivery.attempts.length],
    ['answer', last === undefined ? undefined : attemptOutcome(last)],
    ['why', lastFailure(delivery)],
  ];
  const shown = fields.filter(([, value]) => value !== undefined);
  const width = Math.max(...shown.map(([name]) => name.length)) + 2;
  const lines = shown.map(([name, value]) => `  ${name.padEnd(width)}${escapeControls(String(value))}`);
  return `${lines.join('\n')}\n`;
}

const COLUMNS = ['DELIVERY', 'EVENT', 'STATE', 'ATTEMPTS', 'LAST ANSWER', 'URL'] as const;

/** The deliveries as a table, one line each. */
export function deliveryTable(deliveries: readonly Delivery[]): string {
  if (deliveries.length === 0) return 'no webhook deliveries yet\n';
  const rows = deliveries.map((delivery) => {
    const last = delivery.attempts.at(-1);
    const resent = delivery.resentFrom === undefined ? '' : ' (resend)';
    return [
      delivery.deliveryId,
      `${delivery.event}${resent}`,
      delivery.state,
      String(delivery.attempts.length),
      last === undefined ? '-' : attemptOutcome(last, 40),
      delivery.url,
    ].map(escapeControls);
  });
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: readonly string[]) => `${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()}\n`;
  const failures = deliveries.flatMap((delivery) => {
    const why = lastFailure(delivery);
    return why === undefined ? [] : [`  ${escapeControls(`${delivery.deliveryId}: ${why}`)}\n`];
  });
  return line(COLUMNS) + rows.map(line).join('') + (failures.length > 0 ? `\nWhy the last attempt failed:\n${failures.join('')}` : '');
}
