// `@paymount/core/schemas`: the zod schemas of the service's requests and of the client's options,
// for a merchant who validates a body before calling the client (or builds a form from the rules).
// Kept out of the root so that the root's types do not tie every user to zod's. Listed by name;
// the report of this entry is api/core.schemas.md. The inferred request types are the root's.
export { validate, type ParsableSchema } from '../validation';
export { amountSchema, productLineItemSchema } from '../schemas/amount';
export { productListSchema } from '../schemas/product-list';
export { checkoutAddressSchema } from '../schemas/address';
export { checkoutSessionRequestSchema, createCheckoutSessionRequestSchema } from '../schemas/checkout-session';
export { createDirectPaymentRequestSchema, directPaymentRequestSchema } from '../schemas/direct-payment';
export { terminalSaleRequestSchema } from '../schemas/terminal-sale';
export { createRefundRequestSchema, refundAmountSchema, refundRequestSchema } from '../schemas/refund';
export { transactionQuerySchema } from '../schemas/transaction-query';
export { expireCheckoutSessionRequestSchema } from '../schemas/expire-session';
export { responseEnvelopeSchema } from '../schemas/envelope';
export { reportedAmountSchema } from '../schemas/reported-amount';
export { eventAmountSchema } from '../webhooks/payload';
export type { ResponseEnvelope } from '../types/response-envelope';
export { paymentClientOptionsSchema } from '../schemas/client-options';
export type { ResolvedPaymentClientOptions } from '../types/client-options';
export type { SchemaContext } from '../schemas/urls';
export { isPublicHostname } from '../schemas/public-host';
export { isLogger } from '../schemas/logger-option';
export { MIN_SECRET_LENGTH } from '../schemas/secret-length';
