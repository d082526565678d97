import type { z } from 'zod';
import { SandboxRefusal } from '../envelope';
import type { SandboxCode } from '../codes';

/** Fields whose every rule is "a non-negative integer in minor units" (or a quantity). */
const INTEGER_FIELDS = new Set(['orderAmount', 'taxAmount', 'surchargeAmount', 'tipAmount', 'totalAmount', 'amount', 'num']);

export interface FieldIssue {
  field: string;
  code: SandboxCode;
  message: string;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function fieldName(path: readonly PropertyKey[]): string {
  return path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('') || '(body)';
}

/** One zod issue as the sandbox's code and a message that names the field and the rule. */
export function toFieldIssue(issue: z.core.$ZodIssue, input: unknown): FieldIssue {
  const field = fieldName(issue.path);
  const last = issue.path[issue.path.length - 1];
  const value = valueAt(input, issue.path);
  const custom = issue.code === 'custom' ? (issue.params as { code?: SandboxCode } | undefined)?.code : undefined;
  if (custom) return { field, code: custom, message: `${field} ${issue.message}` };
  if (issue.code === 'invalid_type' && value === undefined) return { field, code: 'V01', message: `${field} is required` };
  const expectsObject = issue.code === 'invalid_type' && (issue.expected === 'object' || issue.expected === 'array');
  if (typeof last === 'string' && INTEGER_FIELDS.has(last) && !expectsObject) {
    return { field, code: 'V05', message: `${field} ${issue.message}` };
  }
  if (issue.code === 'invalid_type') return { field, code: 'V02', message: `${field} must be ${article(issue.expected)}` };
  if (issue.code === 'too_big' || issue.code === 'too_small') return { field, code: 'V03', message: `${field} ${issue.message}` };
  if (issue.code === 'invalid_format') return { field, code: 'V04', message: `${field} ${issue.message}` };
  return { field, code: 'V02', message: `${field} ${issue.message}` };
}

function article(expected: string): string {
  return expected === 'object' || expected === 'array' ? `an ${expected}` : `a ${expected}`;
}

/**
 * Parses `body` with `schema`, or refuses with the first broken rule's code and
 * message; `data.issues` lists every broken rule so one round trip shows them all.
 */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => toFieldIssue(issue, body));
  const first = issues[0] ?? { field: '(body)', code: 'V02' as const, message: 'body is invalid' };
  throw new SandboxRefusal(first.code, first.message, { data: { issues } });
}
