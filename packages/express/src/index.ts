export { paymentRouter, type PaymentRouter } from './payment-router';
