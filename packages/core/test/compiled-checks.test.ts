import { readFileSync } from 'node:fs';
import { safeParse } from 'zod/v4/core';
import { describe, expect, it } from 'vitest';
import { COMPILED_CHECKS_FILE, compiledChecksSource } from '../scripts/compile-webhook-checks';
import { EVENT_FIELD_ISSUES, EVENT_FIELD_SCHEMAS, toValidationIssue, webhookPayloadIssues, webhookPayloadSchema } from '../src/entries/internal';

/*
 * The verifier runs code generated from the webhook schemas (scripts/compile-webhook-checks.ts).
 * The schemas stay the one definition: the generated file must be what they produce now, and
 * it must say what zod says of them, issue for issue, on inputs derived from the schemas themselves.
 */

it('compiled-checks.ts is what the schemas produce now (else run `npm run compile-checks -w @paymount/core`)', () => {
  expect(readFileSync(COMPILED_CHECKS_FILE, 'utf8')).toBe(compiledChecksSource());
});

interface Def {
  type: string;
  shape?: Record<string, { _zod: { def: Def } }>;
  innerType?: { _zod: { def: Def } };
  checks?: readonly { _zod: { def: { check?: string; minimum?: number } } }[];
}

/** Values of every kind, and around each length minimum the schema sets. */
function candidatesFor(def: Def): unknown[] {
  const values: unknown[] = [undefined, null, 0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '', 'x', '\u{1F600}', true, [], {}, ['a']];
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

function zodIssues(schema: Parameters<typeof safeParse>[0], value: unknown) {
  return safeParse(schema, value).error?.issues.map((issue) => toValidationIssue(issue, value));
}

describe('the generated checks say what zod says of the schema they come from', () => {
  const cases: [string, Parameters<typeof safeParse>[0], (value: unknown) => unknown][] = [
    ['webhookPayloadSchema', webhookPayloadSchema, webhookPayloadIssues],
    ...Object.entries(EVENT_FIELD_SCHEMAS).map(([type, schema]) => [type, schema, EVENT_FIELD_ISSUES[type as keyof typeof EVENT_FIELD_ISSUES]] as [string, typeof schema, (value: unknown) => unknown]),
  ];
  it.each(cases)('%s', (_, schema, compiled) => {
    const inputs = variants((schema as unknown as { _zod: { def: Def } })._zod.def);
    expect(inputs.length).toBeGreaterThan(50);
    for (const input of inputs) expect({ input, issues: compiled(input) }).toEqual({ input, issues: zodIssues(schema, input) });
  });
});
