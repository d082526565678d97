import type { z } from 'zod';
import { PaymentValidationError, type ValidationIssue } from './errors';

/**
 * Turns zod's issues into the rule vocabulary paymount documents, so a caller
 * can branch on `rule` without knowing zod. Messages never quote the input:
 * the input may hold a key or a wallet token.
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown, subject: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new PaymentValidationError(subject, toValidationIssues(result.error.issues, value));
}

export function toValidationIssues(issues: readonly z.core.$ZodIssue[], input: unknown): ValidationIssue[] {
  return issues.map((issue) => toValidationIssue(issue, input));
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

function toValidationIssue(issue: z.core.$ZodIssue, input: unknown): ValidationIssue {
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
