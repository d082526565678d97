/** Endpoint paths, relative to the base URL (API version v1). */
export const CREATE_SESSION_PATH = '/v1/checkout/create-session';
export const DIRECT_SALE_PATH = '/v1/checkout/sale';
export const TERMINAL_SALE_PATH = '/v1/semi-integration/transaction/sale';
export const REFUND_PATH = '/v1/checkout/refund';
export const TRANSACTION_QUERY_PATH = '/v1/transaction/query';
export const EXPIRE_SESSION_PATH = '/v1/checkout/expire-session';
