/**
 * The shortest API key or webhook secret accepted at start-up. Keys the portal
 * issues and every credential the sandbox generates are far longer; a shorter
 * value is a placeholder or a truncated paste, guessable as an HMAC key.
 * Pure, with no import: @paymount/sandbox bundles it to hold its own fixed
 * credentials to the same rule.
 */
export const MIN_SECRET_LENGTH = 16;
