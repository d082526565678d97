import * as core from '@paymount/core';
import type { Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOptionsOf, currencyChecks } from '../flows/flows.mjs';
import type { FlowConfig, FlowResult, StepReport } from '../flows/types';
import { expectCurrenciesAsOnNode, expectFailedUnsent, expectPartialRefund, expectQueryAsRecorded, paymentRecords } from './flow-checks';
import { startFlowSandbox, type FlowOutcome, type Launch } from './flow-run';

export interface RuntimeFlowOptions {
  /** The runtime was run with network permission for some hosts only: a call to another fails before it is sent. */
  permissionScoped?: boolean;
  /**
   * The runtime's fetch words a refused connection exactly as one lost after the
   * request went out (workerd: `Network connection lost.` for both), so a payment
   * to a port that refuses connections cannot be told apart from one in doubt.
   */
  refusalLooksLikeLoss?: boolean;
  /** How core names the runtime in its warning that memory is per isolate there, where requests may not share it. */
  isolatedMemory?: string;
}

/**
 * The same flows, judged the same way, on every runtime: what the runtime's
 * run reported, checked against the sandbox's own records (charges, refunds,
 * deliveries). A runtime that could not run them fails every test with its
 * own words, e.g. workerd's `No such module "node:crypto"`.
 */
export function describeRuntimeFlows(runtime: string, launch: Launch, options: RuntimeFlowOptions = {}): void {
  describe(`${runtime}: the merchant's flows against the sandbox on Node`, () => {
    let sandbox: Sandbox | undefined;
    let config: FlowConfig;
    let outcome: FlowOutcome;
    let onNode: Awaited<ReturnType<typeof currencyChecks>>;

    beforeAll(async () => {
      ({ sandbox, config } = await startFlowSandbox(runtime));
      // What Node answers, from core's sources: the reference for the currency check.
      onNode = await currencyChecks(core, clientOptionsOf(config.service), config.orders.currency, config.walletTokens.currency);
      outcome = await launch(config, sandbox);
      // eslint-disable-next-line no-console -- how each step went on this runtime, for the test output
      console.log(`${runtime} (${outcome.result?.runtime ?? 'did not report'}):\n${report(outcome)}`);
    });
    afterAll(() => sandbox?.close());

    const records = () => {
      if (sandbox === undefined) throw new Error('the sandbox did not start');
      return sandbox;
    };
    const chargesOf = (order: string) => records().charges().filter((charge) => charge.referenceOrderId === order);
    /** The wallet payment's charge and the refunds of it, as the sandbox recorded them. */
    const walletRecords = () => paymentRecords(chargesOf(config.orders.wallet), records().refunds());

    /** The step's report when it succeeded; otherwise a failure quoting how the runtime failed. */
    const step = (name: Exclude<keyof FlowResult, 'runtime' | 'log'>): StepReport => {
      if (outcome.result === undefined) throw new Error(`${runtime} did not run the flows: ${outcome.failure}`);
      for (const stage of ['load', 'serve'] as const) {
        const report = outcome.result[stage];
        if (report?.ok !== true) throw new Error(`${runtime}: ${stage} failed: ${summary(report)}`);
      }
      const report = outcome.result[name];
      if (report === undefined) throw new Error(`${runtime}: the ${name} step did not run`);
      if (!report.ok) throw new Error(`${runtime}: ${name} failed: ${summary(report)}`);
      return report;
    };

    it('loads @paymount/core and serves the payment routes on its own server', () => {
      expect(step('serve').ok).toBe(true);
    });

    it('create-session: POST /checkout answers the hosted page, the shopper pays it, the webhook reaches the routes', () => {
      const report = step('checkout');
      const answered = report.body as { error?: unknown } | undefined;
      expect({ status: report.status, error: answered?.error, pageStatus: report.pageStatus }).toEqual({ status: 201, error: undefined, pageStatus: 303 });
      const charges = chargesOf(config.orders.checkout);
      expect(charges.map((c) => [c.channel, c.transactionStatus, c.payableTotal])).toEqual([['hosted-checkout', 'S', 2500]]);
      expect(report.event).toEqual({ type: 'payment.succeeded', referenceOrderId: config.orders.checkout, transactionId: charges[0]?.transactionId });
      const deliveries = records()
        .deliveries()
        .filter((d) => d.payload['referenceOrderId'] === config.orders.checkout);
      expect(deliveries.map((d) => [d.event, d.state, d.attempts.at(-1)?.status])).toEqual([['payment.succeeded', 'delivered', 200]]);
    });

    it('wallet payment: POST /wallet/pay succeeds (never pending) and the sandbox records one charge', () => {
      const body = step('wallet').body as { status?: string; transactionId?: string };
      expect(body).toMatchObject({ status: 'succeeded' });
      const charges = chargesOf(config.orders.wallet);
      expect(charges.map((c) => [c.channel, c.transactionStatus, c.payableTotal])).toEqual([['direct', 'S', 1999]]);
      expect(body.transactionId).toBe(charges[0]?.transactionId);
    });

    it('refund: a partial refund of the wallet payment is recorded by the sandbox', () => {
      expectPartialRefund(step('refund'), walletRecords());
    });

    it('transaction query: the payment and the refund as the sandbox holds them', () => {
      const report = step('query');
      expectQueryAsRecorded({ payment: report.payment, refund: report.refund }, walletRecords(), config.orders.wallet);
    });

    it('webhook verification: verifyWebhook takes the delivery the sandbox signed, refuses a forged body, and so does POST /webhook', () => {
      const report = step('verify');
      const charge = chargesOf(config.orders.checkout)[0];
      expect(report.event).toEqual({ type: 'payment.succeeded', referenceOrderId: config.orders.checkout, transactionId: charge?.transactionId });
      expect(report.forged).toMatchObject({ ok: false, error: { name: 'WebhookVerificationError', reason: 'bad_signature' } });
      expect(report.forgedRoute).toMatchObject({ status: 400, body: { error: { code: 'WEBHOOK_BAD_SIGNATURE' } } });
    });

    it('@paymount/core/webhooks verifies the same deliveries alike, its refusal an instance of the root entry class', () => {
      const report = step('verify');
      expect(report.entry).toEqual({
        event: report.event,
        forged: { ...(report.forged as object), rootClass: true },
      });
    });

    it("createFetchTransport sends a direct payment through the app's own fetch: one attempt, one charge", () => {
      const report = step('ownFetch');
      expect({ status: report.status, outcomeUnknown: report.outcomeUnknown, urls: report.urls }).toEqual({
        status: 'succeeded',
        outcomeUnknown: false,
        urls: [`${config.service.baseUrl}/v1/checkout/sale`],
      });
      expect(chargesOf(config.orders.ownFetch).map((c) => [c.channel, c.transactionStatus, c.payableTotal])).toEqual([['direct', 'S', 1999]]);
    });

    it('a direct payment whose request could not be sent fails at once (not pending, not retried) and charges nothing', () => {
      const report = step('unsent');
      expectFailedUnsent(report, chargesOf(config.orders.unsent), 'TRANSPORT_UNAVAILABLE');
      expect(report.sends).toBe(1);
    });

    if (options.refusalLooksLikeLoss) {
      it("a direct payment to a port that refuses connections is in doubt (pending), since the runtime's error is the one a reset after sending gives; nothing is charged", () => {
        const report = step('refused');
        expect(chargesOf(config.orders.refused)).toEqual([]);
        expect({ status: report.status, outcomeUnknown: report.outcomeUnknown, error: report.error }).toEqual({ status: 'pending', outcomeUnknown: true, error: undefined });
      });
    } else {
      it('a direct payment to a port that refuses connections fails as not sent (NETWORK_ERROR, never pending) and charges nothing', () => {
        const report = step('refused');
        expectFailedUnsent(report, chargesOf(config.orders.refused), 'NETWORK_ERROR');
        expect(report.error?.message).toMatch(/^Could not connect for POST /);
      });
    }

    if (options.permissionScoped) {
      it('a payment to a host the runtime may not reach fails at once, saying which permission is missing, and charges nothing', () => {
        const report = step('denied');
        expectFailedUnsent(report, chargesOf(config.orders.denied), 'TRANSPORT_UNAVAILABLE');
        expect(report.error?.message).toContain('--allow-net');
      });
    }

    it(
      options.isolatedMemory === undefined
        ? 'says nothing about in-memory stores: one process serves every request'
        : 'warns once, at start-up, that the in-memory stores protect nothing across isolates, and what to pass instead',
      () => {
        step('load');
        const warnings = (outcome.result?.log ?? []).filter((line) => line.includes('in-memory stores protect nothing across requests'));
        if (options.isolatedMemory === undefined) expect(warnings).toEqual([]);
        else {
          expect(warnings).toHaveLength(1);
          expect(warnings[0]).toContain(`on ${options.isolatedMemory}`);
          expect(warnings[0]).toContain('Pass stores every isolate shares');
          expect(warnings[0]).toContain('`durableObjectStores(env.PAYMOUNT_STATE)` from @paymount/cloudflare');
        }
      },
    );

    it("close: the routes' server and their client close without an error", () => {
      expect(step('close')).toEqual({ ok: true });
    });

    it('currencies: XAU, XXX and DEM are refused exactly as on Node, and exponents come from the same table', () => {
      expectCurrenciesAsOnNode(step('currency'), onNode, chargesOf(config.orders.currency));
    });
  });
}

function summary(report: StepReport | undefined): string {
  if (report === undefined) return 'not reported';
  const error = report.error;
  return error === undefined ? JSON.stringify(report) : `${error.name}: ${error.message}${error.code === undefined ? '' : ` (${String(error.code)})`}`;
}

/** One line per step: `ok`, or how it failed in the runtime's own words. */
function report(outcome: FlowOutcome): string {
  if (outcome.result === undefined) return `  no result: ${outcome.failure}`;
  return Object.entries(outcome.result)
    .filter((entry): entry is [string, StepReport] => typeof entry[1] === 'object' && !Array.isArray(entry[1]))
    .map(([name, step]) => `  ${name}: ${step.ok ? 'ok' : `FAILED ${summary(step)}`}`)
    .concat((outcome.result.log ?? []).map((line) => `  log: ${line.slice(0, 600)}`))
    .join('\n');
}
