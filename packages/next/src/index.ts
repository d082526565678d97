export {
  paymentRouteHandlers,
  type PaymentRouteContext,
  type PaymentRouteHandler,
  type PaymentRouteHandlers,
  type PaymentRouteHandlersOptions,
} from './payment-route-handlers';
export type { PaymentRouteParams } from './mount-path';
export {
  paymentSettingsFromEnv,
  publishSandboxSettings,
  sandboxWanted,
  type EnvironmentVariables,
  type PaymentSettings,
  type SandboxSettingsSource,
} from './environment';
