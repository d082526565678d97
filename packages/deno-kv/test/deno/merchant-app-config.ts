/** What test/routes-on-deno.test.ts hands the merchant app it starts on Deno. */
export interface MerchantAppConfig {
  port: number;
  kvPath: string;
  /** `kv`: denoKvStores on the one KV; `memory`: paymount's defaults, the control run. */
  stores: 'kv' | 'memory';
  service: {
    client: { apiKey: string; baseUrl: string; appId: string; merchantId: string };
    webhookSecret: string;
    gatewayId: string;
  };
  /** The merchant's orders, by id: what its own database would answer. */
  shop: Record<string, { referenceOrderId: string; amount: { orderAmount: number; priceCurrency: string }; description: string }>;
  /** The order whose event's handler throws once after writing. */
  throwOnceOrder: string;
}
