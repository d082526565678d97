import type { IncomingMessage } from 'node:http';
import { environmentOfKey, type Environment, type SandboxCredentials } from './credentials';
import { SandboxRefusal } from './envelope';
import { callerAddress, headerValue } from './http-io';
import { isoTime } from './iso-time';
import { localFix } from './local-fix';
import type { RequestIdWindow } from './request-ids';

export const TIMESTAMP_WINDOW_MS = 10 * 60_000;
export const REQUEST_ID_MAX_LENGTH = 64;

// The key is never echoed: the fix names where the right one is.
const UNKNOWN_KEY_FIX = localFix(
  'configure the client with its key: `createPaymentClient({ ...sandbox.clientOptions() })` (the test key, `sandbox.apiKey`), ' +
    'or start it with yours: `startSandbox({ credentials: { testApiKey } })` (CLI: --test-api-key)',
);
const CLOCK_FIX = localFix(
  "give the client the sandbox's time: `createPaymentClient({ ...sandbox.clientOptions() })` reads it from `sandbox.clock`, " +
    'or `sandbox.clock.reset()` (POST /sandbox/clock/reset) puts the clock back',
);

export interface AuthContext {
  credentials: SandboxCredentials;
  now: number;
  allowIp?: ((address: string) => boolean) | undefined;
  /** The request carries a JSON body, so its Content-Type must say so; a GET carries none and needs none. */
  jsonBody: boolean;
}

/**
 * The header rules of docs/service-contract.md#authentication, checked in a fixed
 * order so each failure maps to exactly one code. Returns the environment the
 * key selects. The duplicate request-id rule is separate (`claimRequestId`)
 * because a request refused by the rate limit must not burn its id.
 */
export function authenticate(req: IncomingMessage, ctx: AuthContext): Environment {
  if (ctx.allowIp && !ctx.allowIp(callerAddress(req))) {
    const caller = callerAddress(req);
    const fix = localFix(`add it to its list: \`startSandbox({ ipAllowList: [..., '${caller}'] })\` (CLI: --ip-allow ${caller})`);
    throw new SandboxRefusal('A07', `caller address ${caller} is not on the IP allow-list of this application${fix}`);
  }
  const environment = checkAuthorization(headerValue(req, 'authorization'), ctx.credentials);
  if (ctx.jsonBody) checkContentType(headerValue(req, 'content-type'));
  checkTimestamp(headerValue(req, 'x-timestamp'), ctx.now);
  checkRequestId(headerValue(req, 'x-client-request-id'));
  return environment;
}

function checkAuthorization(value: string | undefined, credentials: SandboxCredentials): Environment {
  if (value === undefined || value === '') {
    throw new SandboxRefusal('A01', 'Authorization header is required: `Bearer <API_KEY>`');
  }
  // Exactly "Bearer", one space, then a key with no whitespace at all.
  const match = /^Bearer ([^\s]+)$/.exec(value);
  if (!match) {
    throw new SandboxRefusal('A01', 'Authorization header must be exactly `Bearer <API_KEY>` with one space after Bearer');
  }
  const environment = environmentOfKey(credentials, match[1] ?? '');
  if (!environment) {
    throw new SandboxRefusal('A02', `API key is not valid for the test or the production environment${UNKNOWN_KEY_FIX}`);
  }
  return environment;
}

function checkContentType(value: string | undefined): void {
  // The media type is what comes before any parameter; sliced rather than split, which built an array per call.
  const parametersAt = value?.indexOf(';') ?? -1;
  const mediaType = (parametersAt === -1 ? value : value?.slice(0, parametersAt))?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new SandboxRefusal('A08', 'Content-Type must be application/json');
  }
}

function checkTimestamp(value: string | undefined, now: number): void {
  if (value === undefined || !/^[0-9]{13}$/.test(value)) {
    const hint = value !== undefined && /^[0-9]{10}$/.test(value) ? ' (a 10-digit seconds value is not accepted)' : '';
    throw new SandboxRefusal('A03', `X-Timestamp must be Unix time in milliseconds, 13 digits${hint}`);
  }
  const skewMs = Number(value) - now;
  if (Math.abs(skewMs) > TIMESTAMP_WINDOW_MS) {
    const away = `${Math.ceil(Math.abs(skewMs) / 60_000)} minutes ${skewMs < 0 ? 'behind' : 'ahead of'}`;
    throw new SandboxRefusal(
      'A04',
      `X-Timestamp is ${away} the sandbox's clock (${isoTime(now)}), more than the ${TIMESTAMP_WINDOW_MS / 60_000} minutes allowed${CLOCK_FIX}`,
    );
  }
}

function checkRequestId(value: string | undefined): void {
  if (value === undefined || value.length === 0) {
    throw new SandboxRefusal('A05', 'X-Client-Request-Id header is required');
  }
  if (value.length > REQUEST_ID_MAX_LENGTH) {
    throw new SandboxRefusal('A05', `X-Client-Request-Id must be at most ${REQUEST_ID_MAX_LENGTH} characters`);
  }
}

/** The duplicate rule: a POST repeating an X-Client-Request-Id within 10 minutes is refused. */
export function claimRequestId(req: IncomingMessage, window: RequestIdWindow, now: number): void {
  const id = headerValue(req, 'x-client-request-id') ?? '';
  if (!window.claim(id, now)) {
    throw new SandboxRefusal('A06', 'X-Client-Request-Id was already used within the last 10 minutes (duplicate request)');
  }
}
