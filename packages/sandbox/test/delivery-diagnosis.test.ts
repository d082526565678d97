import { readFileSync } from 'node:fs';
import type { PaymentErrorCode } from '@paymount/core';
import { docsUrl, type DeliveryFailureAnchor } from '@paymount/core/internal';
import { describe, expect, it } from 'vitest';
import type { DeliveryAttempt } from '../src/webhooks/deliveries';
import { diagnoseAttempt, diagnosisText } from '../src/webhooks/diagnosis';

const URL_ = 'http://localhost:3000/payments/webhook';
const at = '2026-01-01T00:00:00.000Z';
const paymountError = (code: string, message: string) => JSON.stringify({ error: { code, message } });

function diagnose(attempt: Omit<DeliveryAttempt, 'at'>) {
  return diagnoseAttempt({ at, ...attempt }, URL_);
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

  it.each([401, 403])("%i: the fix says how each framework's app exempts the payment routes, and names the README section that shows it", (status) => {
    const { fix = '' } = diagnose({ status });
    for (const [framework, way] of [
      ['NestJS', 'controllerDecorators'],
      ['Fastify', 'skip the onRequest hook'],
      ['Express', 'mount the payment router before the auth middleware'],
      ['Koa', 'use the payment middleware before the auth middleware'],
      ['Hono', "wrap the auth middleware in except('/payments/webhook'"],
      ['Next.js', 'leave the payment routes out of the matcher'],
    ]) {
      expect(fix).toContain(`${framework}, ${way}`);
    }
    // Each section it names is a section of that adapter's README.
    const sections = [...fix.matchAll(/\(@paymount\/([a-z]+), ([^)]+)\)/g)].map(([, pkg = '', section = '']) => ({ pkg, section }));
    expect(sections.map(({ pkg }) => pkg).sort()).toEqual(['express', 'fastify', 'hono', 'koa', 'nestjs', 'next']);
    for (const { pkg, section } of sections) {
      const readme = readFileSync(new URL(`../../${pkg}/README.md`, import.meta.url), 'utf8');
      expect(readme.split('\n'), `${pkg} README`).toContain(`## ${section}`);
    }
  });

  // Answers recorded from real apps refusing a delivery with a global auth (the sandbox's keep-alive
  // request; dates dropped): tests/fresh-apps/test/guard.test.ts has each of these apps refuse for real.
  const RECORDED: [string, number, Record<string, string>, string, string, boolean][] = [
    ['NestJS 11 (Express platform), a guard returning false', 403, { 'x-powered-by': 'Express', 'content-type': 'application/json; charset=utf-8', 'keep-alive': 'timeout=5' }, '{"message":"Forbidden resource","error":"Forbidden","statusCode":403}', 'NestJS', true],
    ['NestJS 11 (Fastify platform), a guard throwing UnauthorizedException', 401, { 'content-type': 'application/json; charset=utf-8', 'keep-alive': 'timeout=72' }, '{"message":"Unauthorized","statusCode":401}', 'NestJS', true],
    ['Fastify 5, an onRequest hook replying JSON', 401, { 'content-type': 'application/json; charset=utf-8', 'keep-alive': 'timeout=72' }, '{"error":"sign in first"}', 'Fastify', true],
    ['Fastify 5, an onRequest hook throwing', 401, { 'content-type': 'application/json; charset=utf-8', 'keep-alive': 'timeout=5' }, '{"statusCode":401,"error":"Unauthorized","message":"no token"}', 'Fastify', true],
    ['Express 5, res.status(401).json()', 401, { 'x-powered-by': 'Express', 'content-type': 'application/json; charset=utf-8', 'keep-alive': 'timeout=5' }, '{"error":"sign in first"}', 'Express', true],
    ['Express 5, res.sendStatus(401)', 401, { 'x-powered-by': 'Express', 'content-type': 'text/plain; charset=utf-8', 'keep-alive': 'timeout=5' }, 'Unauthorized', 'Express', true],
    ['a Next.js 16 page', 401, { 'x-powered-by': 'Next.js', 'x-nextjs-cache': 'HIT', 'content-type': 'text/html; charset=utf-8' }, '<!DOCTYPE html>', 'Next.js', true],
    ['a Next.js 16 proxy.ts returning Response.json()', 401, { 'content-type': 'application/json', vary: 'Accept-Encoding', 'keep-alive': 'timeout=5' }, '{"error":"sign in first"}', 'Next.js', false],
    ['a Next.js 16 proxy.ts returning new Response()', 401, { 'content-type': 'text/plain;charset=UTF-8', vary: 'Accept-Encoding', 'keep-alive': 'timeout=5' }, 'Unauthorized', 'Next.js', false],
    ["Hono 4, bearerAuth", 401, { 'content-type': 'text/plain;charset=UTF-8', 'keep-alive': 'timeout=5' }, 'Unauthorized', 'Hono', false],
    ['Hono 4, c.json()', 401, { 'content-type': 'application/json', 'keep-alive': 'timeout=5' }, '{"error":"sign in first"}', 'Hono', false],
    ['Koa 3, ctx.throw(401)', 401, { 'content-type': 'text/plain; charset=utf-8', 'keep-alive': 'timeout=5' }, 'Unauthorized', 'Koa', false],
    ['Koa 3, a JSON body', 401, { 'content-type': 'application/json; charset=utf-8', 'keep-alive': 'timeout=5' }, '{"error":"sign in first"}', 'Koa', false],
  ];
  const FRAMEWORKS = ['NestJS', 'Fastify', 'Express', 'Koa', 'Hono', 'Next.js'];

  it.each(RECORDED)("%s: the framework is told from the answer, and its way out named first (alone when the sign is certain)", (_app, status, answerHeaders, answer, framework, certain) => {
    const { fix = '' } = diagnose({ status, answerHeaders, answer });
    const named = FRAMEWORKS.filter((name) => fix.includes(`${name}, `));
    expect(fix.startsWith(`exempt the payment routes from it: ${framework}, `)).toBe(true);
    if (certain) {
      expect(named).toEqual([framework]);
      expect(fix).toContain(`the answer is ${framework}'s, by `);
    } else {
      expect(named.sort()).toEqual([...FRAMEWORKS].sort());
      expect(fix).toContain(`the answer looks like ${framework}'s, by `);
      expect(fix).toContain(`If the app is not a ${framework} app: `);
    }
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
