export {
  paymentRoute,
  type PaymentRoute,
  type PaymentRouteArgs,
  type PaymentRouteExports,
  type PaymentRouteOnFirstRequest,
  type PaymentRouteOptions,
  type PaymentRouteOptionsFactory,
} from './payment-route';
