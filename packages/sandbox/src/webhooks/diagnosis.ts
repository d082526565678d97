import { STATUS_CODES } from 'node:http';
import { PaymentErrorCode } from '@paymount/core';
import { docsUrl, guideSectionUrl, type DeliveryFailureAnchor } from '@paymount/core/internal';
import { recogniseFramework, type AppFramework, type RecognisedFramework } from './app-framework';
import type { DeliveryAttempt } from './deliveries';


/** Who answered a delivery attempt, as far as the sender can tell. */
export type AttemptOutcome =
  /** Not answered yet. */
  | 'pending'
  /** 200: the receiver took it. */
  | 'delivered'
  /** 200 from paymount's webhook route for an event it had already handled: no handler ran again. */
  | 'duplicate'
  /** paymount's route answered, and refused: its error code says why. */
  | 'refused-by-paymount'
  /** A status without paymount's marker: the app answered before paymount's route ran. */
  | 'refused-by-app'
  /** No status at all: nothing listening, a time-out, a dropped connection. */
  | 'no-answer';

export interface AttemptDiagnosis {
  outcome: AttemptOutcome;
  /** One sentence: what happened and its likely cause. */
  why: string;
  /** What to change, when the cause is known. */
  fix?: string;
  /** paymount's error code, when its route refused. */
  errorCode?: string;
  /** Where this failure is explained. */
  docs?: string;
}

interface Cause {
  why: string;
  fix?: string;
}

/** A cause with its own entry on the site's "Why a delivery failed" page. */
interface ExplainedCause extends Cause {
  anchor: DeliveryFailureAnchor;
}

/** The site's entry of paymount's own error code, or the page's entry for a refusal it cannot name. */
function refusalDocs(code: string | undefined): string {
  return code !== undefined && Object.hasOwn(PaymentErrorCode, code) ? docsUrl('errorCodes', code as PaymentErrorCode) : docsUrl('deliveryFailures', 'paymount-refused');
}

const statusText = (status: number) => `${status} ${STATUS_CODES[status] ?? ''}`.trim();

/** paymount's error body `{ error: { code, message } }`, when the answer is one. */
function paymountError(answer: string | undefined): { code?: string; message?: string } {
  try {
    const body = JSON.parse(answer ?? '') as { error?: { code?: unknown; message?: unknown } };
    const { code, message } = body.error ?? {};
    return { ...(typeof code === 'string' ? { code } : {}), ...(typeof message === 'string' ? { message } : {}) };
  } catch {
    return {};
  }
}

function isDuplicateAnswer(answer: string | undefined): boolean {
  try {
    return (JSON.parse(answer ?? '') as { duplicate?: unknown }).duplicate === true;
  } catch {
    return false;
  }
}

const SECRET_FIX = "configure the app's webhook secret as the sandbox's webhookSecret (printed when the sandbox starts; sandbox.webhookSecret)";
const CLOCK_FIX =
  "the app's clock and the sandbox's service time disagree: a test that moves sandbox.clock gives the routes the same clock; a resend of an old delivery is refused as a replay once past the window";
const PARSER_FIX =
  'mount the payment routes before any body parser (express.json(), koa-body, bodyParser), or exempt the webhook path from it: the signature is over the raw bytes';

/** Where the adapter's guide on the site shows a way out: a link to the section of that title. */
const shownIn = (adapter: string, section: string) => `(${guideSectionUrl(adapter, section)})`;

/**
 * How an app of each framework leaves the payment routes out of its app-wide auth, and the
 * section of its adapter's guide that shows it.
 */
const AUTH_EXEMPTIONS: Readonly<Record<AppFramework, string>> = {
  nestjs: `NestJS, controllerDecorators with your guard's "public" marker ${shownIn('nestjs', 'Global guards')}`,
  fastify: `Fastify, skip the onRequest hook for the payment routes ${shownIn('fastify', 'An app-wide auth hook')}`,
  express: `Express, mount the payment router before the auth middleware ${shownIn('express', 'An app-wide auth middleware')}`,
  koa: `Koa, use the payment middleware before the auth middleware ${shownIn('koa', 'An app-wide auth middleware')}`,
  hono: `Hono, wrap the auth middleware in except('/payments/webhook', ...) ${shownIn('hono', 'An app-wide auth middleware')}`,
  next: `Next.js, leave the payment routes out of the matcher of proxy.ts or middleware.ts ${shownIn('next', 'An app-wide proxy')}`,
  sveltekit: `SvelteKit, return resolve(event) for the payment paths in handle before its auth check ${shownIn('sveltekit', 'An app-wide auth hook')}`,
  nuxt: `Nuxt, return early for the payment paths in the auth server middleware ${shownIn('nuxt', 'An app-wide auth middleware')}`,
  astro: `Astro, return next() for the payment paths in src/middleware.ts before its auth check ${shownIn('astro', 'An app-wide auth middleware')}`,
  'react-router': `React Router, return next() for the payment paths in the root route's middleware before its auth check ${shownIn('react-router', 'An app-wide auth middleware')}`,
  'tanstack-start': `TanStack Start, return next() for the payment paths in the global request middleware before its auth check ${shownIn('tanstack-start', 'An app-wide auth middleware')}`,
  elysia: `Elysia, register .use(paymentPlugin(...)) before the auth hook: a hook applies to the routes registered after it ${shownIn('elysia', 'An app-wide auth hook')}`,
};

/** Each framework's name as the texts say it. */
export const FRAMEWORK_NAMES: Readonly<Record<AppFramework, string>> = {
  nestjs: 'NestJS',
  fastify: 'Fastify',
  express: 'Express',
  koa: 'Koa',
  hono: 'Hono',
  next: 'Next.js',
  sveltekit: 'SvelteKit',
  nuxt: 'Nuxt',
  astro: 'Astro',
  'react-router': 'React Router',
  'tanstack-start': 'TanStack Start',
  elysia: 'Elysia',
};

/** "Hono's", "Hono's or SvelteKit's", "Hono's, SvelteKit's or Astro's". */
function possessives(frameworks: readonly AppFramework[]): string {
  const names = frameworks.map((framework) => `${FRAMEWORK_NAMES[framework]}'s`);
  return names.length === 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;
}

/**
 * The way out of the app's auth: the recognised frameworks' alone (one, or the few that share the
 * sign) when the sign is certain; first, then the others, when it is only likely; every
 * framework's when the answer tells none.
 */
function authExemption(recognised: RecognisedFramework | undefined): string {
  if (recognised === undefined) return `exempt the payment routes from it: ${Object.values(AUTH_EXEMPTIONS).join('; ')}`;
  const { frameworks, certain, sign } = recognised;
  const ways = frameworks.map((framework) => AUTH_EXEMPTIONS[framework]).join('; ');
  if (certain) return `exempt the payment routes from it: ${ways}; the answer is ${possessives(frameworks)}, by ${sign}`;
  const others = Object.entries(AUTH_EXEMPTIONS).filter(([other]) => !frameworks.includes(other as AppFramework)).map(([, way]) => way);
  const names = frameworks.map((framework) => FRAMEWORK_NAMES[framework]).join(' or ');
  return `exempt the payment routes from it: ${ways}; the answer looks like ${possessives(frameworks)}, by ${sign}. If the app is not a ${names} app: ${others.join('; ')}`;
}

/**
 * How an app of each framework whose middleware reads the body before the routes leaves them the
 * bytes (each adapter logs its own with BODY_ALREADY_CONSUMED), and the guide's section showing it.
 */
const CONSUMED_BODY_WAYS: readonly string[] = [
  `SvelteKit, read event.request.clone() in handle, or return resolve(event) for the payment paths there ${shownIn('sveltekit', 'A `handle` hook that reads bodies')}`,
  `Nuxt, read the body through h3 (readRawBody(event), readBody(event)), or return early for the payment paths in the server middleware ${shownIn('nuxt', 'Bodies read before the routes')}`,
  `Astro, read context.request.clone() in src/middleware.ts, or skip the payment paths there ${shownIn('astro', 'How the endpoints behave in Astro')}`,
  `React Router, read request.clone() in the middleware, or skip the payment paths there ${shownIn('react-router', 'Bodies read before the route')}`,
  `TanStack Start, read request.clone() in the request middleware, or skip the payment paths there ${shownIn('tanstack-start', 'A request middleware that reads the body')}`,
  `Elysia, register .use(paymentPlugin(...)) before the hook, or keep the hook in a plugin of its own with the default { as: 'local' } scope ${shownIn('elysia', 'Mounting')}`,
  'Hono, read it with c.req.json() or c.req.text(), which keep the bytes, or request.clone()',
  `Express, Koa, Fastify, NestJS, ${PARSER_FIX}`,
];
const CONSUMED_BODY_FIX = `a middleware or hook before the routes read the request body, and the signature is over the exact bytes: let it read a copy or skip the payment paths. ${CONSUMED_BODY_WAYS.join('; ')}`;

/** Why paymount's webhook route refused, by its error code. */
const PAYMOUNT_CAUSES: Readonly<Record<string, Cause>> = {
  WEBHOOK_BAD_SIGNATURE: {
    why: 'the signature does not match the webhook secret the app is configured with, or the body the route read is not the one sent',
    fix: `${SECRET_FIX}. On a custom Express server of React Router, a body parser (express.json()) before createRequestHandler hands the route an empty body: mount it on your own paths only ${shownIn('react-router', 'Bodies read before the route')}`,
  },
  WEBHOOK_MISSING_HEADER: { why: 'a signature header did not reach the route (a proxy or middleware dropped it)', fix: 'pass X-Signature and X-Timestamp through to the app unchanged' },
  WEBHOOK_INVALID_SECRET: { why: "the app's webhook secret is not usable", fix: SECRET_FIX },
  WEBHOOK_BODY_ALREADY_PARSED: { why: 'a body parser before the webhook route had already turned the body into an object', fix: PARSER_FIX },
  BODY_ALREADY_CONSUMED: { why: 'the body was already read before the route ran, and nothing of it was left to verify', fix: CONSUMED_BODY_FIX },
  WEBHOOK_BODY_TOO_LARGE: { why: "the body is larger than the route's webhook.maxBodyBytes", fix: 'raise webhook.maxBodyBytes' },
  WEBHOOK_STALE_TIMESTAMP: { why: 'X-Timestamp is outside the replay window', fix: CLOCK_FIX },
  WEBHOOK_FUTURE_TIMESTAMP: { why: 'X-Timestamp is ahead of the app\'s clock', fix: CLOCK_FIX },
  WEBHOOK_STALE_EVENT: { why: "the body's signed time is outside the replay window", fix: CLOCK_FIX },
  WEBHOOK_FUTURE_EVENT: { why: "the body's signed time is ahead of the app's clock", fix: CLOCK_FIX },
  WEBHOOK_HANDLER_FAILED: { why: 'one of your event handlers threw', fix: "the app's log has the error, logged with the event; the service retries, so fix the handler and resend" },
  WEBHOOK_IN_PROGRESS: { why: 'another delivery of the same event was being handled at that moment', fix: 'nothing: a retry brings the event once that handler is done' },
  STORE_UNAVAILABLE: { why: "the app's webhook dedupe store could not be reached", fix: 'check the store (Redis, PostgreSQL) the routes are given' },
};

/**
 * The app's own code refusing the signature: a Worker or handler that verifies
 * deliveries itself (`verifyWebhook`) and answers its own words, such as
 * `{"error":"bad_signature"}`, without paymount's marker.
 */
const SIGNATURE_REFUSAL = /signature/i;
const OWN_SIGNATURE_CHECK: ExplainedCause = {
  anchor: 'app-own-signature-check',
  why: "your own code (a Worker or handler that verifies deliveries itself) refused the signature: the webhook secret it checks with is not the sandbox's, or the body it checked was re-serialised (parsed and stringified again) instead of the bytes received",
  fix: `${SECRET_FIX}, and verify the exact bytes received: read the body as text (\`await request.text()\`, or the raw Buffer) and pass that to verifyWebhook before any JSON.parse`,
};

/** Why the app answered `status` before paymount's route ran, by status (and, for an auth refusal, the framework that answered). */
function appCause(status: number, attempt: DeliveryAttempt): ExplainedCause {
  if ((status === 400 || status === 401 || status === 403) && SIGNATURE_REFUSAL.test(attempt.answer ?? '')) return OWN_SIGNATURE_CHECK;
  if (status === 401 || status === 403) {
    return {
      anchor: 'app-auth',
      why: 'a global guard or auth hook blocks the webhook route',
      fix: authExemption(recogniseFramework(status, attempt.answerHeaders ?? {}, attempt.answer)),
    };
  }
  if (status === 404 || status === 405) {
    return {
      anchor: 'app-not-mounted',
      why: "paymount's routes are not mounted at that path, or notifyUrl names the wrong one",
      fix: 'set notifyUrl to where the routes are mounted, ending in /webhook (e.g. http://localhost:3000/payments/webhook), and check the app mounts them there',
    };
  }
  if (status === 400 || status === 413 || status === 415) return { anchor: 'app-body-parser', why: 'a body parser before the route refused or consumed the body', fix: PARSER_FIX };
  if (status === 429) return { anchor: 'app-rate-limiter', why: 'a rate limiter in front of the route refused it', fix: 'exempt the payment routes from the rate limiter' };
  if (status >= 300 && status < 400) {
    return {
      anchor: 'app-redirect',
      why: 'the app redirects the webhook (a login redirect, a trailing slash, http to https), and deliveries never follow redirects',
      fix: 'set notifyUrl to the final URL and exempt the payment routes from login redirects',
    };
  }
  if (status >= 500) return { anchor: 'app-server-error', why: 'a middleware or handler in front of it failed', fix: "the app's log has the error" };
  return { anchor: 'app-other', why: 'something in front of the route refused it' };
}

/** Why no status came, by the failure's code. */
function noAnswerCause(attempt: DeliveryAttempt, url: string): ExplainedCause {
  const where = URL.parse(url)?.host ?? url;
  const code = attempt.errorCode ?? '';
  if (code === 'ECONNREFUSED') return { anchor: 'no-answer-refused', why: `nothing listens at ${where}`, fix: 'start the app, or set notifyUrl to the port it listens on' };
  if (code === 'ETIMEDOUT') {
    return {
      anchor: 'no-answer-timeout',
      why: 'the app did not answer in time',
      fix: 'answer the webhook quickly: move slow work out of the handler (queued handlers), and check nothing holds the request',
    };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { anchor: 'no-answer-dns', why: `the host name of ${where} does not resolve`, fix: 'check the host in notifyUrl' };
  if (/CERT|TLS|SSL/.test(code)) return { anchor: 'no-answer-tls', why: 'the TLS handshake failed', fix: 'use a certificate the sandbox trusts, or http on localhost' };
  return { anchor: 'no-answer-closed', why: 'the connection closed before a complete answer (the app crashed or dropped it)', fix: "the app's log has the error" };
}

/**
 * Who answered one delivery attempt and why it failed, in words: paymount's
 * own route (it marks its answers with x-paymount-route), the app before
 * paymount ran (a status without the marker: guard, parser, route mounted
 * elsewhere), or no answer at all. Pure: reads the attempt and the URL only.
 */
export function diagnoseAttempt(attempt: DeliveryAttempt, url: string): AttemptDiagnosis {
  const { status, paymountRoute } = attempt;
  if (status === undefined && attempt.error === undefined) return { outcome: 'pending', why: 'waiting for the answer' };
  if (status === undefined) {
    const cause = noAnswerCause(attempt, url);
    return { outcome: 'no-answer', why: `no answer: ${cause.why} (${attempt.error})`, ...(cause.fix ? { fix: cause.fix } : {}), docs: docsUrl('deliveryFailures', cause.anchor) };
  }
  if (status === 200) {
    if (paymountRoute === 'webhook' && isDuplicateAnswer(attempt.answer)) {
      return { outcome: 'duplicate', why: "paymount's webhook route answered 200: a duplicate of an event already handled, no handler ran again" };
    }
    const by = paymountRoute === 'webhook' ? "paymount's webhook route" : 'the receiver';
    return { outcome: 'delivered', why: `${by} answered 200 OK` };
  }
  if (paymountRoute !== undefined && paymountRoute !== 'webhook') {
    return {
      outcome: 'refused-by-paymount',
      why: `paymount's ${paymountRoute} route answered ${statusText(status)}, not its webhook route: notifyUrl names the wrong path`,
      fix: `point notifyUrl at the webhook route (the mount path followed by /webhook), not /${paymountRoute}`,
      docs: docsUrl('deliveryFailures', 'wrong-route'),
    };
  }
  if (paymountRoute === 'webhook') {
    const { code, message } = paymountError(attempt.answer);
    const cause = code === undefined ? undefined : PAYMOUNT_CAUSES[code];
    const said = message === undefined ? '' : ` ("${message}")`;
    return {
      outcome: 'refused-by-paymount',
      why: `paymount's webhook route answered ${statusText(status)}${code ? ` ${code}` : ''}${said}${cause ? `: ${cause.why}` : ''}`,
      ...(cause?.fix ? { fix: cause.fix } : {}),
      ...(code ? { errorCode: code } : {}),
      docs: refusalDocs(code),
    };
  }
  const cause = appCause(status, attempt);
  return {
    outcome: 'refused-by-app',
    why: `your app answered ${statusText(status)} before paymount's webhook route ran: ${cause.why}`,
    ...(cause.fix ? { fix: cause.fix } : {}),
    docs: docsUrl('deliveryFailures', cause.anchor),
  };
}

const FAILED_OUTCOMES: ReadonlySet<AttemptOutcome> = new Set(['refused-by-app', 'refused-by-paymount', 'no-answer']);

/** True when the attempt failed (and the diagnosis says why); false while pending or once delivered. */
export function isFailure(diagnosis: AttemptDiagnosis): boolean {
  return FAILED_OUTCOMES.has(diagnosis.outcome);
}

/** The diagnosis as one line of prose: why, then the fix and where it is explained. */
export function diagnosisText(diagnosis: AttemptDiagnosis): string {
  const fix = diagnosis.fix === undefined ? '' : `. Fix: ${diagnosis.fix}`;
  const docs = diagnosis.docs === undefined ? '' : `. See ${diagnosis.docs}`;
  return `${diagnosis.why}${fix}${docs}`;
}
