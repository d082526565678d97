export { PaymentsModule } from './payments.module';
export { PaymentsService } from './payments.service';
export { OnPaymentEvent, PAYMENT_EVENT_METADATA, type PaymentEventMethod } from './on-payment-event.decorator';
export type { NestExpressRequest, NestFastifyRequest, NestPlatformRequest } from './nest-platform';
export { PAYMENTS_MODULE_OPTIONS } from './payments.tokens';
export type { PaymentsModuleExtras, PaymentsModuleOptions, PaymentWorkers, StartPaymentWorkers } from './payments.options';
export { PAYMENT_EVENT_CONTEXT_TYPE, type PaymentEventContextType } from './payment-event.context';
