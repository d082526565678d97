import { SANDBOX_CODES, type SandboxCode } from './codes';
import { randomId } from './random-id';

/** The response envelope (docs/service-contract.md#response-envelope). */
export interface Envelope {
  code: string;
  msg?: string;
  traceId: string;
  data: Record<string, unknown>;
}

export function newTraceId(): string {
  return randomId();
}

/** A refusal: carries its documented code, the HTTP status of that code and a message naming the field or rule. */
export class SandboxRefusal extends Error {
  readonly code: SandboxCode;
  readonly status: number;
  readonly data: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(code: SandboxCode, msg: string, options: { data?: Record<string, unknown>; headers?: Record<string, string> } = {}) {
    super(msg);
    this.code = code;
    this.status = SANDBOX_CODES[code].status;
    this.data = options.data ?? {};
    this.headers = options.headers ?? {};
  }

  toEnvelope(traceId: string): Envelope {
    return { code: this.code, msg: this.message, traceId, data: this.data };
  }
}

export function success(traceId: string, data: Record<string, unknown>): Envelope {
  return { code: '0', msg: 'success', traceId, data };
}

/** An envelope answer with its HTTP status and extra headers (e.g. Retry-After). */
export interface EnvelopeReply {
  status: number;
  envelope: Envelope;
  headers: Record<string, string>;
}

export function refusalReply(refusal: SandboxRefusal, traceId: string = newTraceId()): EnvelopeReply {
  return { status: refusal.status, envelope: refusal.toEnvelope(traceId), headers: refusal.headers };
}
