// `@paymount/core/schemas`: the zod schemas of the service's requests and of the client's options,
// for a merchant who validates a body before calling the client (or builds a form from the rules).
// Kept out of the root so that the root's types do not tie every user to zod's. Listed by name;
// the report of this entry is api/core.schemas.md. The inferred request types are the root's.
export { validate, type ParsableSchema } from '../shared/validation';
export { amountSchema, productLineItemSchema } from '../schemas/amount';
export { productListSchema } from '../schemas/requests';
export { checkoutAddressSchema } from '../schemas/requests';
export { checkoutSessionRequestSchema, createCheckoutSessionRequestSchema } from '../schemas/requests';
export { createDirectPaymentRequestSchema, directPaymentRequestSchema } from '../schemas/requests';
export { terminalSaleRequestSchema } from '../schemas/requests';
export { createRefundRequestSchema, refundAmountSchema, refundRequestSchema } from '../schemas/requests';
export { transactionQuerySchema } from '../schemas/requests';
export { expireCheckoutSessionRequestSchema } from '../schemas/requests';
export { responseEnvelopeSchema } from '../client/response';
export { reportedAmountSchema } from '../schemas/amount';
export { eventAmountSchema } from '../webhooks/payload';
export type { ResponseEnvelope } from '../shared/types';
export { paymentClientOptionsSchema } from '../schemas/client-options';
export type { ResolvedPaymentClientOptions } from '../schemas/client-option-types';
export type { SchemaContext } from '../schemas/urls';
export { isPublicHostname } from '../schemas/urls';
export { isLogger } from '../schemas/client-options';
export { MIN_SECRET_LENGTH } from '../shared/validation';
