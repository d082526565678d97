import { PaymentValidationError } from '@paymount/core';
import { expect, it } from 'vitest';
import { durableObjectStores } from '../src/durable-object-stores';
import { EventCommit } from '../src/event-commit';
import type { PaymountStateNamespace } from '../src/paymount-objects';

it('refuses a namespace that is not a Durable Object namespace, naming the field and the rule', () => {
  const refusal = (() => {
    try {
      durableObjectStores({} as PaymountStateNamespace);
    } catch (error) {
      return error;
    }
  })();
  expect(refusal).toBeInstanceOf(PaymentValidationError);
  expect(refusal).toMatchObject({ issues: [expect.objectContaining({ path: 'namespace' })] });
  expect(String((refusal as Error).message)).toContain('must be the Durable Object namespace bound to PaymountState');
});

it('refuses a d1 that is not a D1 binding, and an unknown option, each named', () => {
  const namespace = { idFromName: () => ({}), get: () => ({}) };
  expect(() => durableObjectStores(namespace, { d1: {} as never })).toThrow(/options\.d1.*must be a D1 database binding/s);
  expect(() => durableObjectStores(namespace, { dB: {} } as never)).toThrow(/dB/);
});

it("a handler's D1 statement with no d1 given is refused at once, naming the option and how to pass it, and nothing is queued", () => {
  const commit = new EventCommit('event-1', false);
  const statement = { bind: () => statement, first: async () => null, run: async () => ({}), all: async () => ({ results: [] }) };
  expect(() => commit.d1(statement)).toThrow(PaymentValidationError);
  expect(() => commit.d1(statement)).toThrow(
    "Invalid durableObjectStores() options: d1 is missing, but this handler writes to D1 with its event's mark: pass durableObjectStores(env.PAYMOUNT_STATE, { d1: env.DB })",
  );
  expect(commit.statements).toEqual([]);
});
