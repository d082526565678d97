import type { Delivery, DeliveryAttempt } from '../webhooks/deliveries';

/**
 * A receiver's answer on one line, printable: control characters (a hostile
 * or careless receiver could send terminal escape sequences) become spaces.
 */
function printable(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
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
  return `  attempt ${n} at ${attempt.at}: ${attemptOutcome(attempt)}${retry}\n`;
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
  ];
  const shown = fields.filter(([, value]) => value !== undefined);
  const width = Math.max(...shown.map(([name]) => name.length)) + 2;
  const lines = shown.map(([name, value]) => `  ${name.padEnd(width)}${String(value)}`);
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
    ];
  });
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: readonly string[]) => `${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()}\n`;
  return line(COLUMNS) + rows.map(line).join('');
}
