/** A framework-neutral answer; each shop turns it into its framework's response in one line. */
export interface ShopResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** After a form post: the page to show, fetched with GET so that a reload posts nothing again. */
export function redirect(location: string): ShopResponse {
  return { status: 303, headers: { location, 'cache-control': 'no-store' }, body: '' };
}

export function jsonResponse(status: number, body: unknown): ShopResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }, body: JSON.stringify(body) };
}
