import { utf8Bytes, utf8Text } from '../bytes';
import { PaymentErrorCode } from '../error-codes';
import type { NeutralRequest } from './neutral-http';
import { bodyTooLarge, PaymentRouteError } from './route-error';
import { isPlainObject } from '../plain-object';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

export type BodyKind = 'json' | 'form';

export interface RequestBody {
  kind: BodyKind;
  fields: Record<string, unknown>;
}

const MEDIA_TYPES: Readonly<Record<BodyKind, string>> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
};

function kindOf(contentType: string | undefined): BodyKind | undefined {
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  if (!mediaType) return undefined;
  if (mediaType === MEDIA_TYPES.json || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType)) return 'json';
  if (mediaType === MEDIA_TYPES.form) return 'form';
  return undefined;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseText(text: string, kind: BodyKind): Record<string, unknown> {
  if (kind === 'form') {
    const fields: Record<string, unknown> = {};
    // A repeated field keeps its first value, so every field stays a single string.
    for (const [key, value] of new URLSearchParams(text)) if (!(key in fields)) fields[key] = value;
    return fields;
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new PaymentRouteError(400, PaymentErrorCode.INVALID_BODY, `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new PaymentRouteError(400, PaymentErrorCode.INVALID_JSON, 'The request body is not valid JSON.');
  }
  if (!isPlainObject(parsed)) throw new PaymentRouteError(400, PaymentErrorCode.INVALID_BODY, 'The request body must be a JSON object.');
  return parsed;
}

/** What the merchant reads in the log when a browser route refuses a body for its size. */
function limitFix(limitBytes: number): string {
  return `this route takes bodies of at most ${limitBytes} bytes (bodyLimitBytes): raise it if your pages send more than { orderId, token }`;
}

/**
 * Reads a route's body as one of the accepted kinds. The content type is
 * checked before a byte is read (415), the size before (a declared
 * Content-Length) and while reading (413), JSON nesting before parsing (400).
 * A body a parser already produced is used as is, so mounting paymount after
 * `express.json()` keeps working for these routes.
 */
export async function readRequestBody(
  req: NeutralRequest,
  options: { accept: readonly BodyKind[]; limitBytes: number },
): Promise<RequestBody> {
  const kind = kindOf(firstHeader(req.headers['content-type']));
  if (kind === undefined || !options.accept.includes(kind)) {
    const accepted = options.accept.map((k) => MEDIA_TYPES[k]).join(' or ');
    throw new PaymentRouteError(415, PaymentErrorCode.UNSUPPORTED_MEDIA_TYPE, `The request Content-Type must be ${accepted}.`);
  }
  const parsed = req.parsedBody;
  if (parsed !== undefined && !(parsed instanceof Uint8Array) && typeof parsed !== 'string') {
    if (!isPlainObject(parsed)) throw new PaymentRouteError(400, PaymentErrorCode.INVALID_BODY, 'The request body must be an object.');
    return { kind, fields: parsed };
  }
  // The reader may have been given a larger limit (the webhook's); each route keeps its own, before reading when it can.
  if (Number(firstHeader(req.headers['content-length'])) > options.limitBytes) throw bodyTooLarge(limitFix(options.limitBytes));
  const bytes = typeof parsed === 'string' ? utf8Bytes(parsed) : (parsed ?? (await req.readBody?.()) ?? new Uint8Array());
  if (bytes.byteLength > options.limitBytes) throw bodyTooLarge(limitFix(options.limitBytes));
  return { kind, fields: parseText(utf8Text(bytes), kind) };
}
