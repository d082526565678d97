import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isLogger } from '../src/entries/schemas';
import { describeIssues, SURROUNDING_WHITESPACE_RULE, toValidationIssues } from '../src/entries/internal';

describe('the rules every option and answer shares', () => {
  it('isLogger takes an object with the four level methods and nothing less', () => {
    const noop = () => {};
    expect(isLogger({ debug: noop, info: noop, warn: noop, error: noop })).toBe(true);
    expect(isLogger({ debug: noop, info: noop, warn: noop })).toBe(false);
    expect(isLogger({ debug: noop, info: noop, warn: noop, error: 'loud' })).toBe(false);
    expect(isLogger(null)).toBe(false);
    expect(isLogger(false)).toBe(false);
  });

  it('the surrounding-whitespace rule catches a pasted newline but not inner spaces', () => {
    expect(SURROUNDING_WHITESPACE_RULE.isBroken('a-long-secret-value\n')).toBe(true);
    expect(SURROUNDING_WHITESPACE_RULE.isBroken(' a-long-secret-value')).toBe(true);
    expect(SURROUNDING_WHITESPACE_RULE.isBroken('a long secret value')).toBe(false);
  });

  it('describeIssues names each field below its root, and the root itself', () => {
    const schema = z.object({ amount: z.number('must be a number'), code: z.string('must be a string') });
    const issues = schema.safeParse({ amount: 'x', code: 1 }).error!.issues;
    expect(describeIssues(issues, 'data')).toBe('data.amount must be a number; data.code must be a string');
    expect(describeIssues(issues)).toBe('amount must be a number; code must be a string');
    expect(describeIssues(schema.safeParse('x').error!.issues)).toMatch(/^\(root\) /);
  });

  it('toValidationIssues gives each issue its path and rule', () => {
    const input = { name: 'ab' };
    const schema = z.object({ name: z.string().min(3, 'too short'), age: z.number() });
    expect(toValidationIssues(schema.safeParse(input).error!.issues, input)).toEqual([
      { path: 'name', rule: 'min_length', message: 'too short' },
      { path: 'age', rule: 'required', message: expect.any(String) },
    ]);
  });
});
