// The Nest app's own session check, and its payment options against the sandbox exempt-main.ts
// starts: what the README's "Global guards" block takes as given.
import type { PaymentsModuleOptions } from '@paymount/nestjs';
import type { Sandbox } from '@paymount/sandbox';
import { sandboxPaymentOptions } from './payment-options.js';

export function hasValidSession(request: unknown): boolean {
  return (request as { headers: Record<string, string | undefined> }).headers['authorization'] === 'Bearer shop-session';
}

/** Set by `useSandbox` before the module is created; read by the README's `useFactory`. */
export let paymentOptions: PaymentsModuleOptions;

export function useSandbox(sandbox: Sandbox, port: string): void {
  paymentOptions = sandboxPaymentOptions(sandbox, port);
}
