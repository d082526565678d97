import type * as z from 'zod/mini';
import { PaymentValidationError, type ValidationIssue } from './errors';
import { expectationMessage, unknownNameMessage } from './validation-messages';

/**
 * Turns zod's issues into the rule vocabulary paymount documents, so a caller
 * can branch on `rule` without knowing zod. Messages never quote the input:
 * the input may hold a key or a wallet token.
 */
export function validate<S extends ParsableSchema>(schema: S, value: unknown, subject: string): z.output<S> {
  const result = checkAgainst(schema, value);
  if (result.success) return result.data;
  throw new PaymentValidationError(subject, toValidationIssues(result.error.issues, value, schema));
}

/**
 * A zod 4 schema, mini or classic (the store packages' options): parsed through
 * its own `safeParse`, which `z.compile` replaces with the schema's fast path
 * (the function `z.safeParse(schema, …)` misses it and takes about three times as long).
 */
export interface ParsableSchema extends z.core.$ZodType {
  safeParse(value: unknown, params?: z.core.ParseContext<z.core.$ZodIssue>): z.core.util.SafeParseResult<unknown>;
}

const IN_PAYMOUNT_WORDS = { error: expectationMessage };

/**
 * `schema.safeParse` with paymount's messages where the schema wrote none (see
 * expectationMessage): zod/mini loads no locale, so without them an issue would read "Invalid input".
 */
export function checkAgainst<S extends ParsableSchema>(schema: S, value: unknown): z.core.util.SafeParseResult<z.output<S>> {
  return schema.safeParse(value, IN_PAYMOUNT_WORDS) as z.core.util.SafeParseResult<z.output<S>>;
}

/**
 * The issues in paymount's rule vocabulary. An unknown key becomes one issue
 * of its own, at its own path, naming the closest known option (found in
 * `schema`, when given).
 */
export function toValidationIssues(issues: readonly z.core.$ZodIssue[], input: unknown, schema?: z.core.$ZodType): ValidationIssue[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: [...issue.path.map(String), key].join('.'),
          rule: 'unknown_field',
          message: unknownNameMessage(key, knownKeysAt(schema, issue.path)),
        }))
      : [toValidationIssue(issue, input)],
  );
}

type Def = { type?: string; shape?: Record<string, unknown>; innerType?: unknown; in?: unknown; out?: unknown; element?: unknown; valueType?: unknown; options?: readonly unknown[] };

const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** The option names of the object `path` leads to in `schema`, through optional, default, pipe, list and record wrappers. */
function knownKeysAt(schema: unknown, path: readonly PropertyKey[]): string[] {
  const def = defOf(schema);
  if (def === undefined) return [];
  const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
  if (inner !== undefined) {
    const fromInner = knownKeysAt(inner, path);
    return fromInner.length > 0 || def.type !== 'pipe' ? fromInner : knownKeysAt(def.out, path);
  }
  if (def.type === 'union') return [...new Set((def.options ?? []).flatMap((option) => knownKeysAt(option, path)))];
  if (path.length === 0) return def.shape ? Object.keys(def.shape) : [];
  const [head, ...rest] = path;
  if (def.shape) return knownKeysAt(def.shape[String(head)], rest);
  if (def.element !== undefined) return knownKeysAt(def.element, rest);
  if (def.valueType !== undefined) return knownKeysAt(def.valueType, rest);
  return [];
}

/**
 * The issues as one line (`data.amount must be ...; code ...`), for an error
 * about an answer that is unusable rather than a list of rules broken.
 * `under` names where the checked value sits (`data`); the root reads `(root)`.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], under?: string): string {
  return issues
    .map((issue) => `${[under, ...issue.path.map(String)].filter((part) => part !== undefined).join('.') || '(root)'} ${issue.message}`)
    .join('; ');
}

/**
 * One issue in the rule vocabulary, for a schema that admits unknown keys
 * (the webhook payload): no closest-name search, so a bundle of the webhook
 * verifier does not carry it.
 */
export function toValidationIssue(issue: z.core.$ZodIssue, input: unknown): ValidationIssue {
  const path = issue.path.map(String).join('.');
  return { path, rule: ruleOf(issue, input), message: issue.message };
}

function ruleOf(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case 'custom': {
      const rule = (issue.params as { rule?: unknown } | undefined)?.rule;
      return typeof rule === 'string' ? rule : 'custom';
    }
    case 'invalid_type':
      return valueAt(input, issue.path) === undefined ? 'required' : 'type';
    case 'too_big':
      return issue.origin === 'string' ? 'max_length' : issue.origin === 'array' ? 'max_items' : 'max';
    case 'too_small':
      return issue.origin === 'string' ? 'min_length' : issue.origin === 'array' ? 'min_items' : 'min';
    case 'invalid_format':
      return issue.format === 'regex' ? 'pattern' : issue.format;
    case 'invalid_value':
      return 'one_of';
    case 'unrecognized_keys':
      return 'unknown_field';
    default:
      return issue.code;
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
