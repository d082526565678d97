export {
  paymentEndpoints,
  type PaymentEndpoints,
  type PaymentEndpointsOptions,
  type PaymentEndpointsOptionsFactory,
} from './payment-endpoints';
