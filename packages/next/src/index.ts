export {
  paymentRouteHandlers,
  type PaymentRouteContext,
  type PaymentRouteHandler,
  type PaymentRouteHandlers,
  type PaymentRouteHandlersOptions,
} from './payment-route-handlers';
export {
  paymentSettingsFromEnv,
  publishSandboxSettings,
  sandboxWanted,
  type Environment,
  type PaymentSettings,
  type SandboxSettingsSource,
} from './environment';
