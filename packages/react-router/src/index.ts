export { paymentRoute, type PaymentRoute, type PaymentRouteArgs, type PaymentRouteOptions } from './payment-route';
