export { PaymentsModule } from './payments.module';
export { PaymentsService } from './payments.service';
export { OnPaymentEvent, PAYMENT_EVENT_METADATA } from './on-payment-event.decorator';
export { PAYMENTS_MODULE_OPTIONS } from './payments.tokens';
export type { PaymentsModuleExtras, PaymentsModuleOptions } from './payments.options';
export { PAYMENT_EVENT_CONTEXT_TYPE, type PaymentEventContextType } from './payment-event.context';
