/** Request headers as Node, Express and Koa give them. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The CSRF defence of the shop's own forms, as @paymount/core's for the
 * checkout form: a form post must come from the shop's own pages.
 * `Sec-Fetch-Site`, which browsers send and no page can set, decides when
 * present (`same-origin`, or `none` for the user's own navigation). Otherwise
 * `Origin` must be the shop's. With neither, the request comes from no browser
 * a cross-site page can drive today (curl, a server), and is let through.
 */
export function isSameOriginPost(headers: RequestHeaders, shopOrigin: string): boolean {
  const site = single(headers['sec-fetch-site'])?.toLowerCase();
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const origin = single(headers['origin']);
  return origin === undefined || origin === shopOrigin;
}
