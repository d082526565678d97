/** What a payment route refused with: its error code and message, and the HTTP status (0: no answer came). */
export interface RouteError {
  code: string;
  message: string;
  status: number;
}

/** A route's JSON answer, or its error: never thrown, so each caller turns it into its own typed result. */
export type RouteAnswer<T> = { ok: true; body: T } | { ok: false; error: RouteError };

/** `<mount>/<route>`, with the order id in the query for the GET routes. */
export function routeUrl(mount: string, route: string, orderId?: string): string {
  const url = `${mount.replace(/\/+$/, '')}/${route}`;
  return orderId === undefined ? url : `${url}?orderId=${encodeURIComponent(orderId)}`;
}

/**
 * Calls a payment route and reads its JSON. Errors keep the route's own code
 * (`{ error: { code, message } }`); a refusal from something in front of the
 * routes (a proxy's HTML page) is named by its status alone.
 */
export async function callRoute<T>(url: string, init?: RequestInit): Promise<RouteAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init?.headers }, credentials: 'same-origin' });
  } catch {
    return { ok: false, error: { code: 'NETWORK_ERROR', message: 'The payment routes could not be reached.', status: 0 } };
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok && body !== undefined) return { ok: true, body: body as T };
  const error = (body as { error?: Partial<RouteError> } | undefined)?.error;
  return {
    ok: false,
    error: {
      code: typeof error?.code === 'string' ? error.code : `HTTP_${response.status}`,
      message: typeof error?.message === 'string' ? error.message : `The payment routes answered ${response.status}.`,
      status: response.status,
    },
  };
}
