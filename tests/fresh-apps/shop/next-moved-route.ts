// The quick start's payment route handlers mounted a second time, at /shop-api/payments: a path the
// README's proxy matcher ("An app-wide proxy") does not leave out, as when a shop moves its payment
// routes and not its matcher. The proxy refuses every delivery there (test/next.test.ts).
export { GET, HEAD, POST } from '../../../payments/[...paymount]/route';
