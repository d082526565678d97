/**
 * The envelope every answer of the service carries. `data` is there on success; an error envelope may
 * lack it, and still carries its `code` and `traceId`. Fields paymount does not know are kept.
 */
export type ResponseEnvelope = {
  /** The service's result code. */
  code: string;
  msg?: string | undefined;
  /** The service's id of the call, to quote to its support. */
  traceId: string;
  data?: Record<string, unknown> | null | undefined;
  [field: string]: unknown;
};
