import type { IncomingMessage } from 'node:http';
import { SandboxRefusal } from '../envelope';
import { headerValue } from '../http-io';
import { ownOrigin } from '../own-origin';

/**
 * The dashboard's buttons post plain forms, which a page on any site could
 * post too (a form needs no CORS preflight). A browser sends the page's
 * `Origin` with every POST and the page cannot change it: only a form from the
 * dashboard itself carries the origin the request is addressed to.
 */
export function checkSameOrigin(req: IncomingMessage): void {
  const origin = headerValue(req, 'origin');
  const own = ownOrigin(req);
  if (origin !== undefined && own !== undefined && URL.parse(origin)?.origin === own) return;
  throw new SandboxRefusal(
    'C03',
    `the dashboard's buttons work from the dashboard's own page only: Origin ${origin === undefined ? 'missing' : JSON.stringify(origin.slice(0, 100))} is not ${own ?? 'the sandbox'}`,
  );
}
