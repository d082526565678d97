import 'reflect-metadata';
import type { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { blockFile } from '../src/workspace';
import { describeQuickStart } from './support/quick-start';

/** The README's app.module.ts, as written (main.ts only creates the app, as below). */
async function appModule(port: number): Promise<Type> {
  process.env.PORT = String(port);
  const { AppModule } = (await import(blockFile('nestjs', 'Quick start', 'app.module.ts'))) as { AppModule: Type };
  return AppModule;
}

describeQuickStart('nestjs on express', async (port) => {
  // As the README's main.ts: rawBody: true.
  const app = await NestFactory.create(await appModule(port), { rawBody: true, logger: ['error', 'warn'] });
  await app.listen(port);
  return { origin: `http://127.0.0.1:${port}`, stop: () => app.close() };
});

describeQuickStart('nestjs on fastify', async (port) => {
  // As the README's Fastify main.ts: a FastifyAdapter, rawBody: true.
  const app = await NestFactory.create<NestFastifyApplication>(await appModule(port), new FastifyAdapter(), {
    rawBody: true,
    logger: ['error', 'warn'],
  });
  await app.listen(port);
  return { origin: `http://127.0.0.1:${port}`, stop: () => app.close() };
});
