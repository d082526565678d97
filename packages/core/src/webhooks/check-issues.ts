import type { ValidationIssue } from '../shared/errors';

/** The issues found so far: undefined while there are none, so a valid delivery allocates nothing. */
export type Issues = ValidationIssue[] | undefined;

/** An object as zod's object schema takes one: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function issue(
  issues: Issues,
  path: string,
  rule: string,
  message: string
): ValidationIssue[] {
  (issues ??= []).push({ path, rule, message });
  return issues;
}

/** A value of the wrong type: `required` when it is absent, as paymount's rule vocabulary reads zod's `invalid_type`. */
export function typeIssue(
  issues: Issues,
  value: unknown,
  path: string,
  missing: string,
  wrong: string
): ValidationIssue[] {
  return value === undefined
    ? issue(issues, path, "required", missing)
    : issue(issues, path, "type", wrong);
}

/**
 * zod runs a length check on a value of the wrong type too when it has a
 * `length` (an array), after its type issue: the rule the value breaks
 * (`min_items` for an array), or undefined when it has no length or is long enough.
 */
export function shortOfType(value: unknown, minimum: number): string | undefined {
  const length = value === undefined || value === null ? undefined : (value as { length?: unknown }).length;
  if (length === undefined || (length as number) >= minimum) return undefined;
  return Array.isArray(value) ? 'min_items' : 'min';
}
