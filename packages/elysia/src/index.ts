export { paymentPlugin, type PaymentPluginOptions } from './payment-plugin';
