// @ts-check
/* global Deno */
// `deno run flows/isolate-warning.mjs '<globals JSON>'`: creates the payment routes as a
// merchant's entry does, on Deno, and prints the warnings they logged. The globals given
// stand in for an isolate host's own (Netlify's `Netlify`, Supabase's `EdgeRuntime`) and
// are set before core loads; Deno Deploy is told by its environment instead.
import { printResult } from './report.mjs';

Object.assign(globalThis, JSON.parse(Deno.args[0] ?? '{}'));
/** @type {string[]} */
const log = [];
const core = await import('@paymount/core');
core.createFetchHandler({
  client: { apiKey: 'sk_test_isolate_warning_0123456789', baseUrl: 'http://127.0.0.1:9', appId: 'app_1', merchantId: 'merchant_1', localDevelopment: true },
  resolveOrder: () => null,
  webhook: { secret: 'whsec_isolate_warning_0123456789' },
  logger: { debug: () => {}, info: () => {}, warn: /** @type {(fields: unknown, message?: string) => void} */ ((fields, message) => void log.push(String(message ?? fields))), error: () => {} },
});
printResult({ runtime: `deno ${Deno.version.deno}`, log });
Deno.exit(0);
