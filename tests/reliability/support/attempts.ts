import type { LogEntry } from './capture';

/** What one attempt looked like from the merchant's side, named after the sandbox fault that causes it. */
export type Symptom = 'clean' | 'refused' | 'http-500' | 'non-json' | 's04' | 'delay' | 'reset' | 'other';

/** Faults the client retries with the same transactionRequestId, which makes a repeat safe even when the first attempt was processed. */
export const RETRYABLE: ReadonlySet<Symptom> = new Set(['http-500', 'non-json', 's04', 'delay', 'reset']);

export interface Attempt {
  attempt: number;
  symptom: Symptom;
}

export interface LogicalCall {
  /** The call's idempotency key; a transaction query's path (which names the transaction); undefined for a session expiry. */
  transactionRequestId: string | undefined;
  path: string;
  attempts: Attempt[];
}

function symptomOf(entry: LogEntry): Symptom {
  if (entry.msg === 'payment service call answered') return 'clean';
  const { status, errorCode, serviceCode } = entry.fields as { status?: number; errorCode?: string; serviceCode?: string };
  if (errorCode === 'TIMEOUT') return 'delay';
  if (errorCode === 'NETWORK_ERROR') return 'reset';
  if (serviceCode === 'S04' && status === 429) return 's04';
  // A definitive refusal in the service's envelope, e.g. a query of a transaction it never received: an answer, not a fault.
  if (serviceCode !== undefined) return 'refused';
  if (errorCode === 'MALFORMED_RESPONSE' && status === 500) return 'http-500';
  if (errorCode === 'MALFORMED_RESPONSE' && status === 200) return 'non-json';
  return 'other';
}

/**
 * Every logical call the client made, from its per-attempt debug lines, in
 * order. A call is keyed by its transactionRequestId (a query by its path,
 * which names the transaction); one key can have several calls one after the
 * other (an attempt the service never received goes out again under its id),
 * told apart by their attempt numbers starting again at 1. A session expiry
 * has no key: its attempts cannot be told apart from another order's, so it
 * is listed once per attempt, under `expiries`.
 */
export function logicalCalls(entries: readonly LogEntry[]): { calls: LogicalCall[]; byKey: Map<string, LogicalCall[]>; expiries: Attempt[] } {
  const byKey = new Map<string, LogicalCall[]>();
  const calls: LogicalCall[] = [];
  const expiries: Attempt[] = [];
  for (const entry of entries) {
    if (entry.msg !== 'payment service call answered' && entry.msg !== 'payment service call failed') continue;
    const { transactionRequestId, path, attempt } = entry.fields as { transactionRequestId?: string; path: string; attempt: number };
    const key = transactionRequestId ?? (path.includes('?') ? path : undefined);
    if (key === undefined) {
      expiries.push({ attempt, symptom: symptomOf(entry) });
      continue;
    }
    const list = byKey.get(key) ?? [];
    let call = list.at(-1);
    if (call === undefined || attempt === 1) {
      call = { transactionRequestId, path, attempts: [] };
      list.push(call);
      calls.push(call);
      byKey.set(key, list);
    }
    call.attempts.push({ attempt, symptom: symptomOf(entry) });
  }
  return { calls, byKey, expiries };
}

/**
 * The retry policy, stated per call: attempts are numbered 1..k without gaps,
 * k ≤ maxAttempts, every attempt before the last was a retryable fault, and a
 * call that ends on a retryable fault used all maxAttempts. Returns what breaks it.
 */
export function policyViolations(call: LogicalCall, maxAttempts: number): string[] {
  const problems: string[] = [];
  const k = call.attempts.length;
  if (call.attempts.some((a, i) => a.attempt !== i + 1)) problems.push('attempt numbers have gaps');
  if (k > maxAttempts) problems.push(`${k} attempts > ${maxAttempts}`);
  call.attempts.slice(0, -1).forEach((a) => {
    if (!RETRYABLE.has(a.symptom)) problems.push(`retried after ${a.symptom}`);
  });
  const last = call.attempts[k - 1];
  if (last && RETRYABLE.has(last.symptom) && k < maxAttempts) problems.push(`gave up after ${k} attempts on ${last.symptom}`);
  if (call.attempts.some((a) => a.symptom === 'other')) problems.push('an attempt failed in an unexpected way');
  return problems;
}

export const endedClean = (call: LogicalCall): boolean => call.attempts.at(-1)?.symptom === 'clean';
/** A call the retry policy absorbed: at least one fault, then a clean answer. */
export const absorbed = (call: LogicalCall): boolean => endedClean(call) && call.attempts.length > 1;

export function tally<K extends string>(keys: Iterable<K>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of keys) out[key] = (out[key] ?? 0) + 1;
  return out;
}
