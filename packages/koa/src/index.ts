export { paymentMiddleware, type PaymentMiddleware, type PaymentMiddlewareOptions } from './payment-middleware';
export { mountPaymentRoutes, type RouterLike } from './mount-payment-routes';
