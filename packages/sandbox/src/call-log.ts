import type { EnvelopeReply } from './envelope';

/** How many answered service calls the log keeps, the newest: enough for a developer's session, bounded under any load. */
export const CALL_LOG_SIZE = 200;

/** A `/v1/` path as logged: an unknown route's path is the caller's text, cut so no call can make an entry large. */
const PATH_SHOWN_CHARS = 200;

/** One service call the sandbox answered, as the dashboard lists it. Neither its headers (the key) nor its body or query (a wallet token) are kept. */
export interface ServiceCall {
  /** Service time it was answered at, in epoch milliseconds. */
  at: number;
  method: string;
  path: string;
  status: number;
  /** The envelope's code: "0" for success, else the refusal's (codes.ts). */
  code: string;
  traceId: string;
  /** The refusal's message, fix included: what the caller was answered. */
  msg?: string;
}

/**
 * The service calls answered, newest last, in a ring of CALL_LOG_SIZE: each
 * record overwrites the oldest once the ring is full, in constant time, so
 * the log costs the same at every load.
 */
export class CallLog {
  private readonly ring: ServiceCall[] = [];
  private next = 0;

  record(method: string, path: string, reply: EnvelopeReply, at: number): void {
    const { code, traceId, msg } = reply.envelope;
    const call: ServiceCall = {
      at,
      method,
      path: path.length > PATH_SHOWN_CHARS ? `${path.slice(0, PATH_SHOWN_CHARS)}…` : path,
      status: reply.status,
      code,
      traceId,
      ...(code === '0' || msg === undefined ? {} : { msg }),
    };
    this.ring[this.next] = call;
    this.next = (this.next + 1) % CALL_LOG_SIZE;
  }

  /** Every call kept, oldest first. */
  list(): ServiceCall[] {
    return [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
  }
}
