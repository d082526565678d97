import 'reflect-metadata';
import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PaymentsService } from '@paymount/nestjs';
import type { Order } from '../context/orders';
import { blockFile, readmeBlock } from '../src/workspace';
import { describeQuickStart, type RunningQuickStart } from './support/quick-start';

/**
 * The README's app.module.ts, as written (main.ts only creates the app, as below), or the longer form the guide
 * keeps under `section` ("Production": the service's settings, the sandbox only outside production).
 */
async function appModule(port: number, section = 'Quick start'): Promise<Type> {
  process.env.PORT = String(port);
  const { AppModule } = (await import(blockFile('nestjs', section, 'app.module.ts'))) as { AppModule: Type };
  return AppModule;
}

/** The guide's back office (`BackOffice`, under "PaymentsService"), given the app's PaymentsService as Nest would inject it. */
interface BackOfficeRefunds {
  refund(transactionId: string, cents: number): Promise<unknown>;
}

/** The running app, as describeQuickStart drives it: stopped by `app.close()`, refunding through the README's BackOffice. */
async function running(app: INestApplication, port: number): Promise<RunningQuickStart> {
  await app.listen(port);
  const block = readmeBlock('nestjs', 'PaymentsService', (each) => each.code.includes('export class BackOffice'), ' declaring BackOffice');
  const { BackOffice } = (await import(block.file)) as { BackOffice: new (payments: PaymentsService) => BackOfficeRefunds };
  const backOffice = new BackOffice(app.get(PaymentsService));
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () => app.close(),
    refund: (order: Order, cents: number) => backOffice.refund(order.transactionId!, cents),
  };
}

describeQuickStart('nestjs on express', async (port) => {
  // As the README's main.ts: rawBody: true.
  const app = await NestFactory.create(await appModule(port), { rawBody: true, logger: ['error', 'warn'] });
  return running(app, port);
});

describeQuickStart('nestjs on fastify', async (port) => {
  // As the guide's Fastify main.ts: a FastifyAdapter, rawBody: true.
  const app = await NestFactory.create<NestFastifyApplication>(await appModule(port), new FastifyAdapter(), {
    rawBody: true,
    logger: ['error', 'warn'],
  });
  return running(app, port);
});

describeQuickStart('nestjs guide on express', async (port) => {
  // The guide's production form of app.module.ts, created as the quick start's main.ts creates the app.
  const app = await NestFactory.create(await appModule(port, 'Production'), { rawBody: true, logger: ['error', 'warn'] });
  return running(app, port);
});
