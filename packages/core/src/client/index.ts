export { createPaymentClient } from './create-client';
export { buildAuthHeaders, formatTimestamp } from './auth-headers';
export { generateTransactionRequestId } from './ids';
export { CREATE_SESSION_PATH, DIRECT_SALE_PATH, TERMINAL_SALE_PATH } from './paths';
export { backoffDelay, parseRetryAfter } from './retry';
export type * from './types';
export type { Clock, PaymentClientOptions, Sleep } from '../schemas/client-options';
