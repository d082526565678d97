import { safeParse } from 'zod/v4/core';
import { describe, expect, it } from 'vitest';
import { EVENT_FIELD_SCHEMAS, eventFieldIssues, payloadIssues, toValidationIssue, webhookPayloadSchema } from '../src/entries/internal';

/*
 * The verifier checks a webhook body and its event by hand (webhooks/event-checks.ts), without zod.
 * The schemas state the same rules: the checks must say what zod says of them, issue for issue, on
 * inputs derived from the schemas themselves, so neither can change without the other.
 */

interface Def {
  type: string;
  shape?: Record<string, { _zod: { def: Def } }>;
  innerType?: { _zod: { def: Def } };
  checks?: readonly { _zod: { def: { check?: string; minimum?: number } } }[];
}

/** Values of every kind, and around each length minimum the schema sets. */
function candidatesFor(def: Def): unknown[] {
  // `{ length: 0 }`: JSON can send an object with a length, which zod's length check reads too.
  const values: unknown[] = [undefined, null, 0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '', 'x', '\u{1F600}', true, [], {}, ['a'], { length: 0 }];
  for (const check of def.checks ?? []) {
    const minimum = check._zod.def.minimum;
    if (minimum !== undefined) values.push('a'.repeat(Math.max(0, minimum - 1)), 'a'.repeat(minimum), '\u{1F600}'.repeat(minimum));
  }
  return values;
}

/** A value the schema accepts, built from its shape: the base each variant changes one field of. */
function validValue(def: Def): unknown {
  if (def.type === 'optional') return validValue(def.innerType!._zod.def);
  if (def.type === 'number') return 100;
  if (def.type === 'string') return 'a'.repeat(Math.max(1, ...(def.checks ?? []).map((check) => check._zod.def.minimum ?? 0)));
  return Object.fromEntries(Object.entries(def.shape ?? {}).map(([key, field]) => [key, validValue(field._zod.def)]));
}

/** The valid value, then for each field (nested ones too) each candidate put in its place. */
function variants(def: Def): unknown[] {
  const base = validValue(def);
  const out: unknown[] = [base, ...candidatesFor(def)];
  const inner = def.type === 'optional' ? def.innerType!._zod.def : def;
  for (const [key, field] of Object.entries(inner.shape ?? {})) {
    for (const value of variants(field._zod.def)) out.push({ ...(base as object), [key]: value });
  }
  return out;
}

/** The valid value with every pair of its fields absent, then null: several issues at once, so their order counts. */
function brokenPairs(def: Def): unknown[] {
  const base = validValue(def) as Record<string, unknown>;
  const keys = Object.keys(def.shape ?? {});
  return keys.flatMap((first, index) =>
    keys.slice(index + 1).flatMap((second) => {
      const without = Object.fromEntries(Object.entries(base).filter(([key]) => key !== first && key !== second));
      return [without, { ...base, [first]: null, [second]: null }];
    }),
  );
}

function zodIssues(schema: Parameters<typeof safeParse>[0], value: unknown) {
  return safeParse(schema, value).error?.issues.map((issue) => toValidationIssue(issue, value));
}

describe('the hand-written checks say what zod says of the schema stating their rules', () => {
  const cases: [string, Parameters<typeof safeParse>[0], (value: unknown) => unknown][] = [
    ['webhookPayloadSchema', webhookPayloadSchema, payloadIssues],
    ...Object.entries(EVENT_FIELD_SCHEMAS).map(
      ([type, schema]) =>
        [type, schema, (value: unknown) => eventFieldIssues(type as keyof typeof EVENT_FIELD_SCHEMAS, value)] as [string, typeof schema, (value: unknown) => unknown],
    ),
  ];
  it.each(cases)('%s', (_, schema, check) => {
    const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
    const inputs = [...variants(def), ...brokenPairs(def)];
    expect(inputs.length).toBeGreaterThan(50);
    // zod says undefined of a valid value, the checks an empty list.
    for (const input of inputs) expect({ input, issues: check(input) }).toEqual({ input, issues: zodIssues(schema, input) ?? [] });
  });
});
