import type { NeutralResponse } from './neutral-http';

/**
 * The header every answer of a paymount route carries, naming the route
 * (`webhook`, `checkout`, ...). A webhook sender that gets a refusal without it
 * knows the app refused before paymount's route ran (a global auth guard, a
 * body parser, a route mounted elsewhere), which the app's own log never shows.
 */
export const ROUTE_MARKER_HEADER = 'x-paymount-route';

/**
 * `response` given the marker of the route at `path` (relative to the mount
 * point, e.g. `/webhook`). Set in place rather than on copies of the response
 * and its headers: every route builds both afresh for each request.
 */
export function markedByRoute(response: NeutralResponse, path: string): NeutralResponse {
  response.headers[ROUTE_MARKER_HEADER] = path.slice(1);
  return response;
}
