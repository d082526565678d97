export { createPaymentClient } from './create-client';
export { buildAuthHeaders, formatTimestamp } from './auth-headers';
export { generateTransactionRequestId } from './ids';
export { CREATE_SESSION_PATH, DIRECT_SALE_PATH, EXPIRE_SESSION_PATH, REFUND_PATH, TERMINAL_SALE_PATH, TRANSACTION_QUERY_PATH } from './paths';
export { backoffDelay, parseRetryAfter } from './retry';
export type * from './types';
export type { Clock, PaymentClientOptions, Sleep } from '../schemas/client-options';
export type { HttpMethod } from './transport';
