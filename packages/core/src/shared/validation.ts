// Checking a value against a schema and wording the broken rules; the secret-length rule.
import type * as z from 'zod/mini';
import { PaymentValidationError, type ValidationIssue } from './errors';

/**
 * paymount's words for a broken rule, in place of zod's ("Invalid input:
 * expected string, received undefined"): what the field must be. Each message
 * follows the field's name (`description is required: a string of at most 128
 * characters`). Messages a schema wrote itself win over these (zod gives a
 * schema's own `error` precedence), so this speaks only where none did.
 */
export const expectationMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = describeType(issue.expected, issue.inst);
      return issue.input === undefined ? `is required: ${expected}` : `must be ${expected}`;
    }
    case 'too_big':
      return `must be ${bound('at most', 'less than', issue.origin, issue.maximum, issue.inclusive)}`;
    case 'too_small':
      return issue.origin === 'string' && Number(issue.minimum) === 1
        ? 'must not be empty'
        : `must be ${bound('at least', 'more than', issue.origin, issue.minimum, issue.inclusive)}`;
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue ? `must match ${String(issue.pattern)}` : `must be a valid ${issue.format}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${quoted(issue.values[0])}` : `must be one of ${issue.values.map(quoted).join(', ')}`;
    case 'invalid_union':
      return `must be ${unionOf(issue.inst)}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_key':
      return 'has a key that breaks its rule';
    case 'invalid_element':
      return 'has an entry that breaks its rule';
    case 'unrecognized_keys':
      // Split per key, with the closest known option, by toValidationIssues.
      return `has no option ${issue.keys.map(quoted).join(', ')}`;
    default:
      return 'breaks its rule';
  }
};

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'a bigint',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  function: 'a function',
  date: 'a Date',
  map: 'a Map',
  set: 'a Set',
  symbol: 'a symbol',
  null: 'null',
  undefined: 'left out',
};

interface CheckDef {
  check?: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  format?: string;
}
type Check = { _zod: { def: CheckDef } };
type Inspected = { _zod?: { def?: { checks?: readonly Check[] }; traits?: { has(trait: string): boolean } } };

/** The limits a schema's checks state, folded from its definition (zod/mini schemas carry no `minLength`, `isInt`… of their own). */
interface Bounds {
  min: number;
  max: number;
  isInt: boolean;
}

function boundsOf(inst: unknown): Bounds {
  const zod = (inst as Inspected | undefined)?._zod;
  // A format schema (z.int()) is its own first check.
  const checks = [...(zod?.traits?.has('$ZodCheck') ? [inst as Check] : []), ...(zod?.def?.checks ?? [])];
  const bounds: Bounds = { min: -Infinity, max: Infinity, isInt: false };
  for (const { _zod: { def } } of checks) {
    if ((def.check === 'min_length' || def.check === 'min_size') && def.minimum !== undefined) bounds.min = Math.max(bounds.min, def.minimum);
    else if ((def.check === 'max_length' || def.check === 'max_size') && def.maximum !== undefined) bounds.max = Math.min(bounds.max, def.maximum);
    else if (def.check === 'greater_than' && def.value !== undefined) bounds.min = Math.max(bounds.min, def.value);
    else if (def.check === 'less_than' && def.value !== undefined) bounds.max = Math.min(bounds.max, def.value);
    else if (def.check === 'number_format' && def.format?.includes('int')) bounds.isInt = true;
    else if (def.check === 'multiple_of' && Number.isSafeInteger(def.value)) bounds.isInt = true;
  }
  return bounds;
}

/** `a string of at most 128 characters`, `an integer from 0 to 100`: the type and the limits the schema itself states. */
function describeType(expected: string, inst: unknown): string {
  const words = TYPE_WORDS[expected] ?? `a ${expected}`;
  const { min, max, isInt } = boundsOf(inst);
  if (expected === 'string') {
    const nonEmpty = min === 1 ? 'a non-empty string' : words;
    if (max !== Infinity) return min > 1 ? `${words} of ${min} to ${max} characters` : `${nonEmpty} of at most ${max} characters`;
    return min > 1 ? `${words} of at least ${min} characters` : nonEmpty;
  }
  if (expected === 'number' || expected === 'int') {
    const kind = isInt ? TYPE_WORDS['int']! : words;
    const finite = (value: number): boolean => Number.isFinite(value) && Math.abs(value) < Number.MAX_SAFE_INTEGER;
    if (finite(min) && finite(max)) return `${kind} from ${min} to ${max}`;
    if (finite(min)) return `${kind} of at least ${min}`;
    if (finite(max)) return `${kind} of at most ${max}`;
    return kind;
  }
  return words;
}

function bound(inclusiveWord: string, exclusiveWord: string, origin: string, limit: unknown, inclusive: boolean | undefined): string {
  const word = inclusive === false ? exclusiveWord : inclusiveWord;
  const value = String(limit);
  if (origin === 'string') return `${word} ${value} characters long`;
  if (origin === 'array' || origin === 'set') return `a list of ${word} ${value} items`;
  return `${word} ${value}`;
}

function quoted(value: unknown): string {
  return typeof value === 'string' ? `\`${value}\`` : String(value);
}

/** The kinds a union accepts, by their types: `a string or an object`. */
function unionOf(inst: unknown): string {
  const options = (inst as { _zod?: { def?: { options?: readonly { _zod?: { def?: { type?: string } } }[] } } } | undefined)?._zod?.def?.options ?? [];
  const kinds = [...new Set(options.map((option) => option._zod?.def?.type).filter((type): type is string => typeof type === 'string'))];
  return kinds.length === 0 ? 'one of the accepted forms' : kinds.map((kind) => TYPE_WORDS[kind] ?? `a ${kind}`).join(' or ');
}

/** Levenshtein distance, case-insensitive: how far a misspelt option is from a known one. */
function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[y.length]!;
}

/** The known name closest to `name`, when it is close enough to be a slip (a third of its letters, at least two). */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (best === undefined || distance < best.distance) best = { name: candidate, distance };
  }
  return best !== undefined && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
}

/**
 * `is not an option; did you mean \`timeoutMs\`?`; the known names too when
 * none is close, or always with `listKnown` (a short, fixed list like the events).
 */
export function unknownNameMessage(name: string, known: readonly string[], what = 'an option', listKnown = false): string {
  const closest = closestName(name, known);
  const guess = closest === undefined ? '' : `; did you mean \`${closest}\`?`;
  const list = known.length > 0 && (listKnown || closest === undefined) ? `${guess ? ' ' : '; '}known: ${known.map((key) => `\`${key}\``).join(', ')}` : '';
  return `is not ${what}${guess}${list}`;
}

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

/** An object as JSON.parse or an object literal makes it: not null, not an array, not a class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * The shortest API key or webhook secret accepted at start-up. Keys the portal
 * issues and every credential the sandbox generates are far longer; a shorter
 * value is a placeholder or a truncated paste, guessable as an HMAC key.
 * Pure, with no import: @paymount/sandbox bundles it to hold its own fixed
 * credentials to the same rule.
 */
export const MIN_SECRET_LENGTH = 16;

/**
 * A secret with surrounding whitespace is almost always a copy-paste slip (a
 * trailing newline from an env file) that would fail every signature. The one
 * definition of the rule (its test, name and message) for the options schema
 * and verifyWebhook. Phrased without the value: the message may be logged.
 */
export const SURROUNDING_WHITESPACE_RULE = {
  rule: 'no_surrounding_whitespace',
  message: 'has leading or trailing whitespace (often a newline copied from an env file); trim it where it is configured',
  isBroken: (secret: string): boolean => secret.trim() !== secret,
} as const;
