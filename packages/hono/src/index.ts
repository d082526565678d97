export { paymentRoutes, type PaymentRoutesApp, type PaymentRoutesAppOptions, type PaymentRoutesOnFirstRequestApp } from './payment-routes';
export type { PaymentRoutesOptionsFactory } from './options-factory';
