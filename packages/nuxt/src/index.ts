export {
  paymentHandler,
  type PaymentEventHandler,
  type PaymentHandler,
  type PaymentHandlerOnFirstRequest,
  type PaymentHandlerOptions,
  type PaymentHandlerOptionsFactory,
} from './payment-handler';
