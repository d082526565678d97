import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createFetchHandler, signWebhook, type Logger, type PaymentRoutesOptions } from '@paymount/core';
import { paymentRouter } from '@paymount/express';
import { paymentApp } from '@paymount/hono';
import { paymentMiddleware } from '@paymount/koa';
import { PaymentsModule } from '@paymount/nestjs';
import express from 'express';
import { Hono } from 'hono';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { webhookPayload } from '../../../tools/conformance/fixtures';
import { compileBlocks, settings } from '../src/compile';
import { commonjsDir, generatedDir, type BlockFile } from '../src/workspace';

/**
 * Every fix paymount logs (and the one Nest answers) for a body read before
 * the payment routes, produced by a real app of each framework set up the
 * usual wrong way, then each piece of code in it (between backticks) compiled
 * as a reader would paste it, under the READMEs' three strict settings, in an
 * app of that framework.
 */

/** What the reader's app already has where each framework's hint is pasted. */
const preludes = {
  express: `import express from 'express';
import { paymentRouter, type PaymentRouterOptions } from '@paymount/express';
declare const app: express.Express;
declare const options: PaymentRouterOptions;`,
  koa: `import type Koa from 'koa';
import { paymentMiddleware, type PaymentMiddlewareOptions } from '@paymount/koa';
declare const app: Koa;
declare const options: PaymentMiddlewareOptions;
declare function koaBody(): Koa.Middleware; // koa-body
declare function bodyParser(): Koa.Middleware; // @koa/bodyparser`,
  hono: `import type { Context, Hono } from 'hono';
import { paymentApp, type PaymentAppOptions } from '@paymount/hono';
declare const app: Hono;
declare const c: Context;
declare const options: PaymentAppOptions;`,
  nestjs: `import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
declare class AppModule {}`,
  fetch: 'declare const request: Request;',
  core: `import type { PaymentRoutesOptions } from '@paymount/core';
import type { Sandbox } from '@paymount/sandbox';
declare const options: PaymentRoutesOptions;
declare const sandbox: Sandbox;`,
} as const;
type Framework = keyof typeof preludes;

/** The words each framework's hints must not borrow from another. */
const foreign: Record<Framework, RegExp | undefined> = {
  express: /koa|hono|nest/i,
  koa: /express/i,
  hono: /express|koa/i,
  nestjs: /express\.|koa/i,
  fetch: /express|koa/i,
  core: /express|koa/i,
};

interface Hint {
  framework: Framework;
  text: string;
}

let fixture: AdapterFixture;
const hints: Hint[] = [];

/** A logger keeping each `fix` (and each error message of a refusal) as a hint of `framework`. */
function hintLogger(framework: Framework): Logger {
  const keep = (fields: unknown) => {
    const { fix } = (typeof fields === 'object' ? fields : {}) as { fix?: unknown };
    if (typeof fix === 'string') hints.push({ framework, text: fix });
  };
  return { debug: () => undefined, info: keep, warn: keep, error: keep };
}

const options = (framework: Framework): PaymentRoutesOptions => ({ ...fixture.options, logger: hintLogger(framework) });

async function deliverTo(url: string, transactionId: string, timestamp?: number): Promise<Response> {
  const delivery = signWebhook({
    payload: webhookPayload({ transactionId }),
    secret: fixture.sandbox.webhookSecret,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
  return fetch(url, { method: 'POST', headers: delivery.headers, body: delivery.body });
}

beforeAll(async () => {
  fixture = await startAdapterFixture();

  // Express with express.json() first, as an app is before payments are added.
  const expressApp = express();
  expressApp.use(express.json());
  expressApp.use('/payments', paymentRouter(options('express')));
  const expressServer = await listen(expressApp);
  expect((await deliverTo(`${expressServer.url}/payments/webhook`, 'TX-hint-express')).status).toBe(500);
  await expressServer.close();

  // Koa with a koa-body-like parser first: the parsed object on ctx.request.body, no bytes kept.
  const koa = new Koa();
  koa.use(async (ctx, next) => {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    (ctx.request as { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    await next();
  });
  koa.use(paymentMiddleware({ ...options('koa'), mountPath: '/payments' }));
  const koaServer = await listen(koa.callback());
  expect((await deliverTo(`${koaServer.url}/payments/webhook`, 'TX-hint-koa')).status).toBe(500);
  await koaServer.close();

  // Hono with a middleware reading the Request itself.
  const hono = new Hono();
  hono.use(async (c, next) => {
    await c.req.raw.json();
    await next();
  });
  hono.route('/payments', paymentApp(options('hono')));
  const honoDelivery = signWebhook({ payload: webhookPayload({ transactionId: 'TX-hint-hono' }), secret: fixture.sandbox.webhookSecret });
  const honoAnswer = await hono.request('/payments/webhook', { method: 'POST', headers: honoDelivery.headers, body: honoDelivery.body });
  expect(honoAnswer.status).toBe(500);

  // A Fetch-API server whose middleware read the body; and a delivery an hour old (the clock fix, in core's words).
  const handler = createFetchHandler(options('fetch'), { mountPath: '/payments' });
  const request = new Request('http://127.0.0.1/payments/webhook', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  await request.json();
  expect((await handler(request)).status).toBe(500);
  const clockHandler = createFetchHandler(options('core'), { mountPath: '/payments' });
  const late = signWebhook({
    payload: webhookPayload({ transactionId: 'TX-hint-late' }),
    secret: fixture.sandbox.webhookSecret,
    timestamp: fixture.sandbox.clock.now() - 3_600_000,
  });
  const lateAnswer = await clockHandler(new Request('http://127.0.0.1/payments/webhook', { method: 'POST', headers: late.headers, body: late.body }));
  expect(lateAnswer.status).toBe(400);

  // Nest created without rawBody: the refusal's message says how, and it is answered (no log line).
  @Module({ imports: [PaymentsModule.forRoot({ ...fixture.options, logger: false })] })
  class AppModule {}
  const nest = await NestFactory.create(AppModule, { logger: false });
  await nest.init();
  const nestServer = await listen(nest.getHttpAdapter().getInstance());
  const nestAnswer = await deliverTo(`${nestServer.url}/payments/webhook`, 'TX-hint-nest');
  hints.push({ framework: 'nestjs', text: ((await nestAnswer.json()) as { error: { message: string } }).error.message });
  await nestServer.close();
  await nest.close();
});
afterAll(() => fixture.close());

/** Each piece of code of a hint: a statement when it ends with `;`, else an expression. */
function codeOf(hint: string): string[] {
  return [...hint.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

/** Writes each piece of code of each hint as a block file (ES and CommonJS trees), in an async function so `await` reads as written. */
function hintBlocks(): BlockFile[] {
  return hints.flatMap((hint, h) =>
    codeOf(hint.text).map((code, c) => {
      const relative = join('hints', `${hint.framework}-${h}`, `C${c}`, 'hint.ts');
      const prelude = `${preludes[hint.framework]}\nexport async function pasted(): Promise<void> {\n`;
      const body = `${prelude}${code.endsWith(';') ? code : `void (${code});`}\n}\n`;
      for (const root of [generatedDir, commonjsDir]) {
        mkdirSync(join(root, relative, '..'), { recursive: true });
        writeFileSync(join(root, relative), body);
      }
      return {
        readme: `${hint.framework} hint`,
        line: c + 1,
        code,
        section: '',
        fileName: undefined,
        preludes: [],
        file: join(generatedDir, relative),
        commonjsFile: join(commonjsDir, relative),
        preludeLines: prelude.split('\n').length - 1,
      };
    }),
  );
}

describe('the fix hints paymount prints', () => {
  it('come from every framework, each with code in it', () => {
    expect(new Set(hints.map((hint) => hint.framework))).toEqual(new Set(Object.keys(preludes)));
    for (const hint of hints) expect(codeOf(hint.text), hint.text).not.toEqual([]);
  });

  it("are worded for the app's framework", () => {
    for (const hint of hints) expect(hint.text, `${hint.framework}: ${hint.text}`).not.toMatch(foreign[hint.framework] ?? /$^/);
    expect(hints.find((hint) => hint.framework === 'koa')?.text).toContain('koa');
  });

  it.each(settings.map((setting) => [setting.name, setting] as const))('compile as written (%s)', (_name, setting) => {
    const blocks = hintBlocks();
    const compiled = compileBlocks(blocks, setting);
    expect(blocks.flatMap((block) => compiled.byBlock.get(block)!.map((error) => `${error}\n    in: ${block.code}`))).toEqual([]);
  });
});
