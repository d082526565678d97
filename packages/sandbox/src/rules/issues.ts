import type { z } from 'zod';
// Bundled into this package's build (not a runtime dependency on @paymount/core): the sandbox
// words a broken rule as the client does, so a developer reads one vocabulary from both.
import { checkAgainst, expectationMessage, toValidationIssues } from '@paymount/core/internal';
import type { ParsableSchema } from '@paymount/core/schemas';
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

/**
 * One zod issue as the sandbox's code and a message that names the field and
 * the rule. Its words are the schema's own or, where it wrote none, core's
 * (`checkAgainst`).
 */
export function toFieldIssue(issue: z.core.$ZodIssue, input: unknown): FieldIssue {
  const field = fieldName(issue.path);
  const last = issue.path[issue.path.length - 1];
  const value = valueAt(input, issue.path);
  const custom = issue.code === 'custom' ? (issue.params as { code?: SandboxCode } | undefined)?.code : undefined;
  if (custom) return { field, code: custom, message: `${field} ${issue.message}` };
  if (issue.code === 'invalid_type' && value === undefined) {
    // A schema's own type message ("must be a string") would misread a missing field: core's words for one.
    return { field, code: 'V01', message: `${field} ${expectationMessage({ ...issue, input: undefined })}` };
  }
  const expectsObject = issue.code === 'invalid_type' && (issue.expected === 'object' || issue.expected === 'array');
  if (typeof last === 'string' && INTEGER_FIELDS.has(last) && !expectsObject) {
    return { field, code: 'V05', message: `${field} ${issue.message}` };
  }
  if (issue.code === 'too_big' || issue.code === 'too_small') return { field, code: 'V03', message: `${field} ${issue.message}` };
  if (issue.code === 'invalid_format') return { field, code: 'V04', message: `${field} ${issue.message}` };
  return { field, code: 'V02', message: `${field} ${issue.message}` };
}

/**
 * Every broken rule of `input`, or its parsed value. A key a strict schema
 * does not know is an issue of its own (R02), naming the closest known one.
 */
function checkFields<S extends ParsableSchema>(schema: S, input: unknown): { data: z.output<S> } | { issues: FieldIssue[] } {
  const result = checkAgainst(schema, input);
  if (result.success) return { data: result.data };
  const issues = result.error.issues.flatMap((issue): FieldIssue[] =>
    issue.code === 'unrecognized_keys'
      ? toValidationIssues([issue], input, schema).map(({ path, message }) => ({ field: path, code: 'R02', message: `${path} ${message}` }))
      : [toFieldIssue(issue, input)],
  );
  return { issues };
}

/**
 * Parses `body` with `schema`, or refuses with the first broken rule's code and
 * message; `data.issues` lists every broken rule so one round trip shows them all.
 */
export function parseBody<S extends ParsableSchema>(schema: S, body: unknown): z.output<S> {
  const checked = checkFields(schema, body);
  if ('data' in checked) return checked.data;
  const first = checked.issues[0] ?? { field: '(body)', code: 'V02' as const, message: 'body is invalid' };
  throw new SandboxRefusal(first.code, first.message, { data: { issues: checked.issues } });
}

/**
 * Parses the input of a sandbox control route (its JSON body or query), or
 * refuses it with R02: its message says every broken rule, `data.issues`
 * lists them one by one.
 */
export function parseControlInput<S extends ParsableSchema>(schema: S, input: unknown): z.output<S> {
  const checked = checkFields(schema, input);
  if ('data' in checked) return checked.data;
  throw new SandboxRefusal('R02', checked.issues.map((issue) => issue.message).join('; '), { data: { issues: checked.issues } });
}
