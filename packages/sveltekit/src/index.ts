export {
  paymentHandlers,
  type PaymentHandler,
  type PaymentHandlers,
  type PaymentHandlersOptions,
  type PaymentHandlersSettings,
} from './payment-handlers';
