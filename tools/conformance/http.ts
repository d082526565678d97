/** What the suite compares across frameworks: status, the headers that carry meaning, and the body. */
export interface Exchange {
  status: number;
  location: string | null;
  allow: string | null;
  retryAfter: string | null;
  contentType: string | null;
  contentLength: string | null;
  text: string;
  json: unknown;
}

export async function send(url: string, init: RequestInit = {}): Promise<Exchange> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    location: response.headers.get('location'),
    allow: response.headers.get('allow'),
    retryAfter: response.headers.get('retry-after'),
    contentType: response.headers.get('content-type'),
    contentLength: response.headers.get('content-length'),
    text,
    json,
  };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Exchange> {
  return send(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export function postRaw(url: string, body: string, headers: Record<string, string>): Promise<Exchange> {
  return send(url, { method: 'POST', headers, body });
}
