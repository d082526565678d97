export { paymentPlugin, type PaymentPlugin, type PaymentPluginOptions } from './payment-plugin';
