import type { IncomingMessage } from 'node:http';
import { ROUTE_MARKER_HEADER } from '@paymount/core/internal';

/**
 * A webhook delivery as a proxy in front of app instances passes it on: its
 * body bytes and the headers the service sends (signature, delivery id,
 * timestamp), for tests that stand a load balancer or a fan-out between the
 * sandbox and several instances.
 */
export async function readDelivery(req: IncomingMessage): Promise<{ body: Buffer; headers: Record<string, string> }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const name of ['x-signature', 'x-client-request-id', 'x-timestamp']) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return { body: Buffer.concat(chunks), headers };
}

/**
 * The headers of an instance's answer the proxy passes back: the route
 * marker, without which the sandbox takes a refusal for the app's own (a guard
 * or a body parser before paymount's route) and logs that diagnosis.
 */
export function answerHeaders(response: Response): Record<string, string> {
  const marker = response.headers.get(ROUTE_MARKER_HEADER);
  return marker === null ? {} : { [ROUTE_MARKER_HEADER]: marker };
}
