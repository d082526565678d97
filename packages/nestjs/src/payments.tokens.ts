/** Injection token of the options given to PaymentsModule.forRoot / forRootAsync. */
export const PAYMENTS_MODULE_OPTIONS = Symbol.for('paymount:payments-module-options');
