/**
 * The shortest API key or webhook secret accepted at start-up. Keys the portal
 * issues and every credential the sandbox generates are far longer; a shorter
 * value is a placeholder or a truncated paste, guessable as an HMAC key.
 * Pure, with no import: @paymount/sandbox bundles it to hold its own fixed
 * credentials to the same rule.
 */
export const MIN_SECRET_LENGTH = 16;

/**
 * A secret with surrounding whitespace is almost always a copy-paste slip (a
 * trailing newline from an env file) that would fail every signature. The one
 * definition of the rule (its test, name and message) for the options schema
 * and verifyWebhook. Phrased without the value: the message may be logged.
 */
export const SURROUNDING_WHITESPACE_RULE = {
  rule: 'no_surrounding_whitespace',
  message: 'has leading or trailing whitespace (often a newline copied from an env file); trim it where it is configured',
  isBroken: (secret: string): boolean => secret.trim() !== secret,
} as const;
