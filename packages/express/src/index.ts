export { paymentRouter, type PaymentRouter, type PaymentRouterOptions } from './payment-router';
