/** A shop's settings off the sandbox, every one set: what its config tests take away from, one at a time. */
export const SERVICE_ENV = {
  PUBLIC_URL: 'https://shop.example.com',
  PAYMENT_BASE_URL: 'https://pay.example.com',
  PAYMENT_API_KEY: 'sk_live_0123456789',
  PAYMENT_APP_ID: 'app_1',
  PAYMENT_MERCHANT_ID: 'mch_1',
  PAYMENT_WEBHOOK_SECRET: 'whsec_0123456789',
  PAYMENT_GATEWAY_ID: 'gateway',
  STAFF_PASSWORD: 'a long staff password',
};
