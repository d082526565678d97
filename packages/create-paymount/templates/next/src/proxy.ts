import { NextResponse, type NextRequest } from 'next/server';
import { shop } from './shop';

/**
 * A Content Security Policy on every page: scripts only from the shop (Next.js's own, each with
 * this request's nonce, and what they load) and the wallet, so a page that handles a wallet token
 * runs nothing else. Next.js puts the nonce on its scripts when the request carries the policy.
 */
export async function proxy(request: NextRequest) {
  const { wallet } = await shop();
  const walletOrigin = new URL('sandbox' in wallet ? wallet.sandbox : wallet.scriptUrl).origin;
  const nonce = btoa(crypto.randomUUID());
  // React's development build evaluates code for its error overlay and call stacks; its production build does not.
  const evaluates = process.env.NODE_ENV === 'development' ? " 'unsafe-eval'" : '';
  const policy = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic' ${walletOrigin}${evaluates}`,
    // Next.js and React write style attributes and elements of their own.
    "style-src 'self' 'unsafe-inline'",
    `connect-src 'self' ${walletOrigin}`,
    `frame-src ${walletOrigin}`,
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const headers = new Headers(request.headers);
  headers.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', policy);
  return response;
}

export const config = {
  // The pages only: not paymount's routes (the service's webhooks among them), nor Next.js's files.
  matcher: ['/((?!payments/|_next/static|_next/image|favicon.ico).*)'],
};
