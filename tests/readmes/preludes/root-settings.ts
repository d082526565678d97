// Prelude "root-settings": your service settings and an order store that gives paymount's order shape.
import type { MerchantOrder } from '@paymount/core';
declare const apiKey: string, baseUrl: string, appId: string, merchantId: string, gatewayId: string, webhookSecret: string;
declare const orders: { toPay(id: string): Promise<MerchantOrder | null>; markPaid(id: string, transactionId: string): Promise<void> };
