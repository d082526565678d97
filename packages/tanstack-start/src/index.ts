export {
  paymentHandlers,
  type PaymentHandler,
  type PaymentHandlerContext,
  type PaymentHandlers,
  type PaymentHandlersOptions,
  type PaymentHandlersWithRoutes,
} from './payment-handlers';
export type { PaymentRouteParams } from './mount-path';
