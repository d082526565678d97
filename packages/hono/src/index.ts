export { paymentRoutes, type PaymentRoutesApp, type PaymentRoutesAppOptions } from './payment-routes';
