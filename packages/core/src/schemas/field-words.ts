/**
 * A zod `error` option in paymount's words (`is required`, `must be a string`), the same
 * whichever zod is loaded: zod mini sets no locale, so without it a refused webhook field
 * read "Invalid input" when `@paymount/core/webhooks` is all an app loads.
 */
export function mustBe(expected: string): { error: (issue: { input?: unknown }) => string } {
  return { error: (issue) => (issue.input === undefined ? 'is required' : `must be ${expected}`) };
}
