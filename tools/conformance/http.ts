import { request as httpRequest } from 'node:http';

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

function exchangeOf(status: number, header: (name: string) => string | null, text: string): Exchange {
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status,
    location: header('location'),
    allow: header('allow'),
    retryAfter: header('retry-after'),
    contentType: header('content-type'),
    contentLength: header('content-length'),
    text,
    json,
  };
}

export async function send(url: string, init: RequestInit = {}): Promise<Exchange> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  return exchangeOf(response.status, (name) => response.headers.get(name), await response.text());
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

/**
 * POSTs a body the route answers without reading (too large), on a connection of
 * its own: see `sendRawPath` for why such a connection must not be reused.
 */
export function postUnread(url: string, body: string, headers: Record<string, string>): Promise<Exchange> {
  const { origin, pathname, search } = new URL(url);
  return sendRawPath(origin, `${pathname}${search}`, { method: 'POST', headers, body });
}

/**
 * Sends `rawPath` to `origin` byte for byte: fetch() would resolve its dot
 * segments and backslashes before sending, and those spellings are the point.
 */
export function sendRawPath(
  origin: string,
  rawPath: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    // A connection of its own: workerd closes one whose request body an answer (404, 413) left unread
    // without saying so (it drops `Connection: close`), and a reused socket then resets on the next request.
    const options = { method: init.method ?? 'GET', headers: init.headers, path: rawPath, agent: false };
    const request = httpRequest(origin, options, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const header = (name: string) => {
          const value = response.headers[name];
          return value === undefined ? null : String(value);
        };
        resolve(exchangeOf(response.statusCode ?? 0, header, Buffer.concat(chunks).toString('utf8')));
      });
    });
    request.on('error', reject);
    request.end(init.body);
  });
}
