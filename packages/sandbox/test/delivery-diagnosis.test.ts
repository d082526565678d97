import { readFileSync } from 'node:fs';
import type { PaymentErrorCode } from '@paymount/core';
import { docsUrl, headingAnchor, type DeliveryFailureAnchor } from '@paymount/core/internal';
import { describe, expect, it } from 'vitest';
import type { DeliveryAttempt } from '../src/webhooks/deliveries';
import { recogniseFramework, type AppFramework } from '../src/webhooks/app-framework';
import { diagnoseAttempt, diagnosisText, FRAMEWORK_NAMES } from '../src/webhooks/diagnosis';

const URL_ = 'http://localhost:3000/payments/webhook';
const at = '2026-01-01T00:00:00.000Z';
const paymountError = (code: string, message: string) => JSON.stringify({ error: { code, message } });

function diagnose(attempt: Omit<DeliveryAttempt, 'at'>) {
  return diagnoseAttempt({ at, ...attempt }, URL_);
}

/**
 * Each guide section the fix links to, `https://paymount.dev/guides/<adapter>.html#<anchor>`, is a section of that
 * adapter's guide on the site (`site/guides/<adapter>.md`); and these adapters' are linked. (site/test holds the
 * anchors to the built pages.)
 */
function expectGuideSections(fix: string, adapters: string[]): void {
  const links = [...fix.matchAll(/https:\/\/paymount\.dev\/guides\/([a-z-]+)\.html#([a-z0-9_-]+)/g)].map(([, pkg = '', anchor = '']) => ({ pkg, anchor }));
  expect(links.map(({ pkg }) => pkg).sort()).toEqual(adapters);
  for (const { pkg, anchor } of links) {
    const headings = readFileSync(new URL(`../../../site/guides/${pkg}.md`, import.meta.url), 'utf8')
      .split('\n')
      .flatMap((line) => (line.startsWith('## ') ? [headingAnchor(line.slice(3))] : []));
    expect(headings, `${pkg} guide`).toContain(anchor);
  }
}

describe('diagnoseAttempt: who answered a delivery attempt, and why it failed', () => {
  it('an attempt without an answer yet is pending', () => {
    expect(diagnose({}).outcome).toBe('pending');
  });

  it("200 from paymount's webhook route is delivered; with duplicate: true it says no handler ran again", () => {
    expect(diagnose({ status: 200, paymountRoute: 'webhook', answer: '{"received":true}' })).toMatchObject({
      outcome: 'delivered',
      why: "paymount's webhook route answered 200 OK",
    });
    const duplicate = diagnose({ status: 200, paymountRoute: 'webhook', answer: '{"received":true,"duplicate":true}' });
    expect(duplicate.outcome).toBe('duplicate');
    expect(duplicate.why).toContain('no handler ran again');
    expect(diagnose({ status: 200, answer: 'ok' })).toMatchObject({ outcome: 'delivered', why: 'the receiver answered 200 OK' });
  });

  it.each([
    [401, 'Unauthorized', 'a global guard or auth hook blocks the webhook route', 'controllerDecorators', 'app-auth'],
    [403, 'Forbidden', 'a global guard or auth hook blocks the webhook route', 'onRequest hook', 'app-auth'],
    [404, 'Not Found', "paymount's routes are not mounted at that path, or notifyUrl names the wrong one", 'ending in /webhook', 'app-not-mounted'],
    [405, 'Method Not Allowed', "paymount's routes are not mounted at that path", 'notifyUrl', 'app-not-mounted'],
    [413, 'Payload Too Large', 'a body parser before the route refused or consumed the body', 'before any body parser', 'app-body-parser'],
    [415, 'Unsupported Media Type', 'a body parser before the route', 'before any body parser', 'app-body-parser'],
    [400, 'Bad Request', 'a body parser before the route', 'before any body parser', 'app-body-parser'],
    [429, 'Too Many Requests', 'a rate limiter', 'rate limiter', 'app-rate-limiter'],
    [302, 'Found', 'deliveries never follow redirects', 'final URL', 'app-redirect'],
    [500, 'Internal Server Error', 'a middleware or handler in front of it failed', "app's log", 'app-server-error'],
    [502, 'Bad Gateway', 'a middleware or handler in front of it failed', "app's log", 'app-server-error'],
  ] satisfies [number, string, string, string, DeliveryFailureAnchor][])('%i without the paymount marker: refused by the app before paymount ran (%s)', (status, reason, cause, fix, anchor) => {
    const diagnosis = diagnose({ status, answer: 'Forbidden resource' });
    expect(diagnosis.outcome).toBe('refused-by-app');
    expect(diagnosis.why.startsWith(`your app answered ${status} ${reason} before paymount's webhook route ran: `)).toBe(true);
    expect(diagnosis.why).toContain(cause);
    expect(diagnosis.fix).toContain(fix);
    expect(diagnosis.docs).toBe(docsUrl('deliveryFailures', anchor));
    expect(diagnosis.errorCode).toBeUndefined();
  });

  it('403 reads as the issue asks: who refused, before what, the likely cause, and where the fix is', () => {
    expect(diagnosisText(diagnose({ status: 403 }))).toMatch(
      /^your app answered 403 Forbidden before paymount's webhook route ran: a global guard or auth hook blocks the webhook route\. Fix: exempt the payment routes from it: .*\. See https:\/\/paymount\.dev\/troubleshooting\/webhook-deliveries\.html#app-auth$/,
    );
  });

  it.each([401, 403])("%i: the fix says how each framework's app exempts the payment routes, and links to the guide's section that shows it", (status) => {
    const { fix = '' } = diagnose({ status });
    for (const [framework, way] of [
      ['NestJS', 'controllerDecorators'],
      ['Fastify', 'skip the onRequest hook'],
      ['Express', 'mount the payment router before the auth middleware'],
      ['Koa', 'use the payment middleware before the auth middleware'],
      ['Hono', "wrap the auth middleware in except('/payments/webhook'"],
      ['Next.js', 'leave the payment routes out of the matcher'],
      ['SvelteKit', 'return resolve(event) for the payment paths in handle'],
      ['Nuxt', 'return early for the payment paths in the auth server middleware'],
      ['Astro', 'return next() for the payment paths in src/middleware.ts'],
      ['React Router', "return next() for the payment paths in the root route's middleware"],
      ['TanStack Start', 'return next() for the payment paths in the global request middleware'],
      ['Elysia', 'register .use(paymentPlugin(...)) before the auth hook'],
    ]) {
      expect(fix).toContain(`${framework}, ${way}`);
    }
    expectGuideSections(fix, ['astro', 'elysia', 'express', 'fastify', 'hono', 'koa', 'nestjs', 'next', 'nuxt', 'react-router', 'sveltekit', 'tanstack-start']);
  });

  it("a body read before paymount's route (BODY_ALREADY_CONSUMED): each framework's way to leave it the bytes, each in its guide", () => {
    const diagnosis = diagnose({ status: 500, paymountRoute: 'webhook', answer: paymountError('BODY_ALREADY_CONSUMED', 'The request body was already read by another middleware.') });
    expect(diagnosis).toMatchObject({ outcome: 'refused-by-paymount', errorCode: 'BODY_ALREADY_CONSUMED', docs: docsUrl('errorCodes', 'BODY_ALREADY_CONSUMED') });
    expect(diagnosis.why).toContain('the body was already read before the route ran');
    const fix = diagnosis.fix ?? '';
    for (const [framework, way] of [
      ['SvelteKit', 'read event.request.clone() in handle, or return resolve(event) for the payment paths there'],
      ['Nuxt', 'read the body through h3 (readRawBody(event), readBody(event)), or return early for the payment paths in the server middleware'],
      ['Astro', 'read context.request.clone() in src/middleware.ts'],
      ['React Router', 'read request.clone() in the middleware'],
      ['TanStack Start', 'read request.clone() in the request middleware'],
      ['Elysia', "register .use(paymentPlugin(...)) before the hook, or keep the hook in a plugin of its own with the default { as: 'local' } scope"],
      ['Hono', 'read it with c.req.json()'],
      ['Express, Koa, Fastify, NestJS', 'mount the payment routes before any body parser'],
    ]) {
      expect(fix).toContain(`${framework}, ${way}`);
    }
    expectGuideSections(fix, ['astro', 'elysia', 'nuxt', 'react-router', 'sveltekit', 'tanstack-start']);
  });

  it('a bad signature also names the body a parser before React Router\'s custom Express server drained, with its guide section', () => {
    const { fix = '' } = diagnose({ status: 400, paymountRoute: 'webhook', answer: paymountError('WEBHOOK_BAD_SIGNATURE', 'Invalid webhook signature') });
    expect(fix).toContain('webhookSecret');
    expect(fix).toContain('a body parser (express.json()) before createRequestHandler hands the route an empty body');
    expectGuideSections(fix, ['react-router']);
  });

  // Answers recorded from real apps refusing a delivery with a global auth (the sandbox's keep-alive
  // request; dates dropped): tests/fresh-apps/test/guard.test.ts has each of these apps refuse for real.
  const RECORDED: [string, number, Record<string, string>, string, string[], boolean][] = [
    ['NestJS 11 (Express platform), a guard returning false', 403, { 'x-powered-by': 'Express', 'content-type': 'application/json; charset=utf-8', 'keep-alive': 'timeout=5' }, '{"message":"Forbidden resource","error":"Forbidden","statusCode":403}', ['NestJS'], true],
    ['NestJS 11 (Fastify platform), a guard throwing UnauthorizedException', 401, { 'content-type': 'application/json; charset=utf-8', 'keep-alive': 'timeout=72' }, '{"message":"Unauthorized","statusCode":401}', ['NestJS'], true],
    ['Fastify 5, an onRequest hook replying JSON', 401, { 'content-type': 'application/json; charset=utf-8', 'keep-alive': 'timeout=72' }, '{"error":"sign in first"}', ['Fastify'], true],
    ['Fastify 5, an onRequest hook throwing', 401, { 'content-type': 'application/json; charset=utf-8', 'keep-alive': 'timeout=5' }, '{"statusCode":401,"error":"Unauthorized","message":"no token"}', ['Fastify'], true],
    ['Express 5, res.status(401).json()', 401, { 'x-powered-by': 'Express', 'content-type': 'application/json; charset=utf-8', 'keep-alive': 'timeout=5' }, '{"error":"sign in first"}', ['Express'], true],
    ['Express 5, res.sendStatus(401)', 401, { 'x-powered-by': 'Express', 'content-type': 'text/plain; charset=utf-8', 'keep-alive': 'timeout=5' }, 'Unauthorized', ['Express'], true],
    ['a Next.js 16 page', 401, { 'x-powered-by': 'Next.js', 'x-nextjs-cache': 'HIT', 'content-type': 'text/html; charset=utf-8' }, '<!DOCTYPE html>', ['Next.js'], true],
    ['a Next.js 16 proxy.ts returning Response.json()', 401, { 'content-type': 'application/json', vary: 'Accept-Encoding', 'keep-alive': 'timeout=5' }, '{"error":"sign in first"}', ['Next.js', 'React Router'], false],
    ['a Next.js 16 proxy.ts returning new Response()', 401, { 'content-type': 'text/plain;charset=UTF-8', vary: 'Accept-Encoding', 'keep-alive': 'timeout=5' }, 'Unauthorized', ['Next.js', 'React Router'], false],
    ["Hono 4, bearerAuth", 401, { 'content-type': 'text/plain;charset=UTF-8', 'keep-alive': 'timeout=5' }, 'Unauthorized', ['Hono', 'SvelteKit', 'Astro', 'React Router', 'TanStack Start', 'Nuxt'], false],
    ['Hono 4, c.json()', 401, { 'content-type': 'application/json', 'keep-alive': 'timeout=5' }, '{"error":"sign in first"}', ['Hono', 'SvelteKit', 'Astro', 'React Router', 'TanStack Start', 'Nuxt'], false],
    ['Koa 3, ctx.throw(401)', 401, { 'content-type': 'text/plain; charset=utf-8', 'keep-alive': 'timeout=5' }, 'Unauthorized', ['Koa'], false],
    ['Koa 3, a JSON body', 401, { 'content-type': 'application/json; charset=utf-8', 'keep-alive': 'timeout=5' }, '{"error":"sign in first"}', ['Koa'], false],
  ];
  const FRAMEWORKS = Object.values(FRAMEWORK_NAMES);

  /** The frameworks whose way out the fix names, in the order it names them. */
  const namedIn = (fix: string) =>
    [...fix.matchAll(/(?:: |; )([A-Z][\w.]*(?: [A-Z]\w*)?), /g)].map(([, name]) => name).filter((name) => FRAMEWORKS.includes(name ?? ''));

  /** "Hono's", "Nuxt's or TanStack Start's", as the fix says whose the answer is. */
  const whose = (frameworks: string[]) => frameworks.map((name) => `${name}'s`).join(', ').replace(/, ([^,]+)$/, ' or $1');

  it.each(RECORDED)('%s: the framework is told from the answer, and its way out named first (alone when the sign is certain)', (_app, status, answerHeaders, answer, frameworks, certain) => {
    const { fix = '' } = diagnose({ status, answerHeaders, answer });
    const named = namedIn(fix);
    expect(named.slice(0, frameworks.length)).toEqual(frameworks);
    if (certain) {
      expect(named).toEqual(frameworks);
      expect(fix).toContain(`the answer is ${whose(frameworks)}, by `);
    } else {
      expect([...new Set(named)].sort()).toEqual([...FRAMEWORKS].sort());
      expect(fix).toContain(`the answer looks like ${whose(frameworks)}, by `);
      expect(fix).toContain(`If the app is not a ${frameworks.join(' or ')} app: `);
    }
  });

  // The refusals of the SvelteKit, Nuxt, Astro, React Router, TanStack Start and Elysia adapters' test apps, each
  // built and served for production by its package's test support (tests/fresh-apps/src/record-refusals.ts).
  const FRESH_RECORDINGS = JSON.parse(readFileSync(new URL('../../../tests/fresh-apps/recorded/refusals.json', import.meta.url), 'utf8')) as {
    app: string;
    framework: AppFramework;
    status: number;
    answerHeaders: Record<string, string>;
    answer: string;
  }[];
  /** Whether each framework's refusal tells it for sure, and which frameworks share its sign. */
  const FRESH_SIGNS: Record<string, { frameworks: AppFramework[]; certain: boolean }> = {
    sveltekit: { frameworks: ['sveltekit'], certain: true },
    astro: { frameworks: ['astro'], certain: true },
    'react-router': { frameworks: ['react-router'], certain: true },
    nuxt: { frameworks: ['nuxt'], certain: true },
    'tanstack-start': { frameworks: ['tanstack-start', 'nuxt'], certain: true },
    elysia: { frameworks: ['elysia', 'nuxt', 'hono'], certain: false },
  };

  it('the recordings cover every new framework', () => {
    expect([...new Set(FRESH_RECORDINGS.map(({ framework }) => framework))].sort()).toEqual(Object.keys(FRESH_SIGNS).sort());
  });

  it.each(FRESH_RECORDINGS.map((recording) => [recording.app, recording] as const))('%s: its own refusal tells the framework (or the few sharing its sign)', (_app, recording) => {
    const expected = FRESH_SIGNS[recording.framework];
    expect(recogniseFramework(recording.status, recording.answerHeaders, recording.answer)).toMatchObject(expected ?? {});
  });

  // The framework's error path writes a 401 an auth hook throws (SvelteKit's error(401), h3's createError, Elysia's
  // status(401)) as it wrote these, with that status in it.
  it.each(FRESH_RECORDINGS.map((recording) => [recording.app, recording] as const))("%s: a 401 written as it writes its refusals gets its way out first", (_app, recording) => {
    const answer = recording.answer.replace(new RegExp(`"statusCode": ?${recording.status}`), '"statusCode": 401');
    const { fix = '' } = diagnose({ status: 401, answerHeaders: recording.answerHeaders, answer });
    const { frameworks = [], certain } = FRESH_SIGNS[recording.framework] ?? {};
    const names = frameworks.map((framework) => FRAMEWORK_NAMES[framework]);
    expect(namedIn(fix).slice(0, names.length)).toEqual(names);
    expect(fix).toContain(certain ? `the answer is ${whose(names)}, by ` : `the answer looks like ${whose(names)}, by `);
  });

  it('an answer that tells no framework (no content type, no sign) lists every way out, none first by guess', () => {
    const { fix = '' } = diagnose({ status: 403, answerHeaders: { 'keep-alive': 'timeout=5' }, answer: 'Forbidden' });
    expect(fix).not.toMatch(/the answer (is|looks like)/);
    for (const framework of FRAMEWORKS) expect(fix).toContain(`${framework}, `);
  });

  it.each([
    ['WEBHOOK_BAD_SIGNATURE', 400, 'does not match the webhook secret', 'webhookSecret'],
    ['WEBHOOK_BODY_ALREADY_PARSED', 500, 'a body parser before the webhook route', 'before any body parser'],
    ['WEBHOOK_HANDLER_FAILED', 500, 'one of your event handlers threw', "app's log"],
    ['WEBHOOK_STALE_EVENT', 400, 'outside the replay window', 'same clock'],
    ['WEBHOOK_IN_PROGRESS', 409, 'another delivery of the same event', 'a retry brings the event'],
    ['STORE_UNAVAILABLE', 503, 'dedupe store could not be reached', 'Redis'],
  ] satisfies [PaymentErrorCode, number, string, string][])("paymount's webhook route refusing with %s: its code, its message and the fix", (code, status, cause, fix) => {
    const diagnosis = diagnose({ status, paymountRoute: 'webhook', answer: paymountError(code, 'what paymount said') });
    // The entry of paymount's own error code on the site.
    expect(diagnosis).toMatchObject({ outcome: 'refused-by-paymount', errorCode: code, docs: docsUrl('errorCodes', code) });
    expect(diagnosis.why).toMatch(new RegExp(`^paymount's webhook route answered ${status} [A-Za-z ]+ ${code} \\("what paymount said"\\): `));
    expect(diagnosis.why).toContain(cause);
    expect(diagnosis.fix).toContain(fix);
  });

  it("an error code paymount's route answers that has no known cause is still named, with its message", () => {
    const diagnosis = diagnose({ status: 400, paymountRoute: 'webhook', answer: paymountError('WEBHOOK_INVALID_PAYLOAD', 'not an event') });
    expect(diagnosis).toMatchObject({ outcome: 'refused-by-paymount', errorCode: 'WEBHOOK_INVALID_PAYLOAD' });
    expect(diagnosis.why).toBe('paymount\'s webhook route answered 400 Bad Request WEBHOOK_INVALID_PAYLOAD ("not an event")');
    expect(diagnosis.fix).toBeUndefined();
  });

  it("a code paymount's route does not give links to the page's entry for a refusal it cannot name", () => {
    const diagnosis = diagnose({ status: 400, paymountRoute: 'webhook', answer: paymountError('SOMETHING_ELSE', 'a proxy said') });
    expect(diagnosis.docs).toBe(docsUrl('deliveryFailures', 'paymount-refused'));
  });

  it('another paymount route answering means notifyUrl names the wrong path', () => {
    const diagnosis = diagnose({ status: 400, paymountRoute: 'checkout', answer: paymountError('INVALID_BODY', 'orderId') });
    expect(diagnosis.outcome).toBe('refused-by-paymount');
    expect(diagnosis.why).toContain("paymount's checkout route answered 400 Bad Request, not its webhook route");
    expect(diagnosis.fix).toContain('not /checkout');
    expect(diagnosis.docs).toBe(docsUrl('deliveryFailures', 'wrong-route'));
  });

  it.each([
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:3000', 'nothing listens at localhost:3000', 'start the app', 'no-answer-refused'],
    ['ETIMEDOUT', 'no answer within 10000 ms', 'the app did not answer in time', 'queued handlers', 'no-answer-timeout'],
    ['ENOTFOUND', 'getaddrinfo ENOTFOUND shop.invalid', 'does not resolve', 'host in notifyUrl', 'no-answer-dns'],
    ['ECONNRESET', 'socket hang up', 'the connection closed before a complete answer', "app's log", 'no-answer-closed'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate', 'the TLS handshake failed', 'certificate', 'no-answer-tls'],
  ] satisfies [string, string, string, string, DeliveryFailureAnchor][])('no answer (%s): what the failure means', (errorCode, error, cause, fix, anchor) => {
    const diagnosis = diagnose({ error, errorCode });
    expect(diagnosis.outcome).toBe('no-answer');
    expect(diagnosis.why.startsWith('no answer: ')).toBe(true);
    expect(diagnosis.why).toContain(cause);
    expect(diagnosis.why).toContain(`(${error})`);
    expect(diagnosis.fix).toContain(fix);
    expect(diagnosis.docs).toBe(docsUrl('deliveryFailures', anchor));
  });

  it('an answer that is not JSON, or JSON of another shape, is read without throwing', () => {
    for (const answer of ['<html>', '', 'null', '[]', '{"error":"text"}', '{"error":{"code":7}}']) {
      expect(diagnose({ status: 500, paymountRoute: 'webhook', answer }).outcome).toBe('refused-by-paymount');
      expect(diagnose({ status: 200, paymountRoute: 'webhook', answer }).outcome).toBe('delivered');
    }
  });
});
