export { paymentApp, type PaymentApp, type PaymentAppOptions, type PaymentAppOnFirstRequest } from './payment-app';
export type { PaymentRoutesOptionsFactory } from './options-factory';
