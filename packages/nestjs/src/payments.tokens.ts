/** Injection token of the options given to PaymentsModule.forRoot / forRootAsync. */
export const PAYMENTS_MODULE_OPTIONS = Symbol.for('paymount:payments-module-options');

/** Injection token of the module settings (PaymentsModuleExtras) the module was defined with, for PaymentsService to check. */
export const PAYMENTS_MODULE_SETTINGS = Symbol.for('paymount:payments-module-settings');
