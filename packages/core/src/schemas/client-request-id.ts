/**
 * The longest X-Client-Request-Id (docs/service-contract.md#limits): the ids
 * the client sends and a webhook delivery's id alike. Its own module, free of
 * zod, so the webhook entry pays nothing for it.
 */
export const CLIENT_REQUEST_ID_MAX = 64;
