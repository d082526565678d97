// Prelude "nuxt-server": what Nitro imports for you into the Nuxt README's server/routes/payments/[...].ts:
// useRuntimeConfig, typed from the quick start's nuxt.config.ts, and your server/utils (the order store,
// three folders up from the route here).
import type { H3Event } from 'h3';
import { orders } from '../../../orders.js';
declare function useRuntimeConfig(event?: H3Event): {
  payment: { apiKey: string; baseUrl: string; appId: string; merchantId: string; gatewayId: string; webhookSecret: string; localDevelopment: boolean };
  shopUrl: string;
};
