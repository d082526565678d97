/**
 * Every answer code the sandbox returns. The spec fixes only "0" (success) and
 * "S04" (call-frequency limit); each other rule gets its own code so a client's
 * test can tell exactly which rule it broke. The README table is this list.
 */
export const SANDBOX_CODES = {
  A01: { status: 401, rule: 'Authorization header missing or not exactly `Bearer <key>` (one space)' },
  A02: { status: 401, rule: 'API key belongs to no environment of this sandbox (neither the test nor the production key)' },
  A03: { status: 400, rule: 'X-Timestamp missing or not 13 digits (`^[0-9]{13}$`, milliseconds; a 10-digit value is refused)' },
  A04: { status: 401, rule: 'X-Timestamp more than 10 minutes away from the sandbox clock' },
  A05: { status: 400, rule: 'X-Client-Request-Id missing, empty or longer than 64 characters' },
  A06: { status: 409, rule: 'X-Client-Request-Id already seen on a POST within the last 10 minutes (duplicate request)' },
  A07: { status: 403, rule: 'caller address is not on the configured IP allow-list' },
  A08: { status: 415, rule: 'Content-Type is not `application/json`' },
  H01: { status: 421, rule: 'Host header names neither localhost nor the address the sandbox listens on (control routes: DNS rebinding)' },
  R01: { status: 413, rule: 'request body larger than the body limit' },
  R02: { status: 400, rule: 'request body is not a JSON object' },
  R04: { status: 404, rule: 'no such route' },
  R05: { status: 405, rule: 'method not allowed on this route (service routes take POST)' },
  V01: { status: 400, rule: 'a required field is missing' },
  V02: { status: 400, rule: 'a field has the wrong JSON type' },
  V03: { status: 400, rule: 'a string is empty, too short or too long' },
  V04: { status: 400, rule: 'a string does not match its pattern' },
  V05: { status: 400, rule: 'an amount or quantity is not a non-negative safe integer (minor units; quantities at least 1)' },
  V06: { status: 400, rule: 'payable total (orderAmount + taxAmount + surchargeAmount) is not greater than 0' },
  V07: { status: 400, rule: 'priceCurrency is not an ISO 4217 currency code' },
  V08: { status: 400, rule: 'productList sum of amount x num differs from amount.orderAmount' },
  V09: { status: 400, rule: 'a URL field is not an absolute http(s) URL' },
  V10: { status: 400, rule: 'notifyUrl is not a public HTTPS URL (see allowLocalNotifyUrl)' },
  V11: { status: 400, rule: 'paymentMethod is not `WALLET_PAY`' },
  B01: { status: 403, rule: 'appId is not the application of this sandbox' },
  B02: { status: 403, rule: 'merchantId is not the merchant of this sandbox' },
  I01: { status: 409, rule: 'transactionRequestId was already used by a different operation' },
  W01: { status: 400, rule: 'cardEncryptedData is not a wallet token JSON string (protocolVersion, signature, signedMessage)' },
  W02: { status: 400, rule: 'wallet token does not verify (forged, altered, or minted by another sandbox)' },
  W03: { status: 400, rule: 'wallet token was issued for another gateway or gatewayMerchantId' },
  W04: { status: 400, rule: 'wallet token uses authMethod `PAN_ONLY` (only `CRYPTOGRAM_3DS` is supported)' },
  W05: { status: 400, rule: 'wallet token has expired (service time)' },
  S04: { status: 429, rule: 'call-frequency limit exceeded (retry after the `Retry-After` seconds)' },
  E01: { status: 500, rule: 'internal error of the sandbox' },
} as const satisfies Record<string, { status: number; rule: string }>;

export type SandboxCode = keyof typeof SANDBOX_CODES;
