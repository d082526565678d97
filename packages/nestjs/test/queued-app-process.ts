/**
 * One process of a queued Nest deployment, configured by PAYMOUNT_NEST_APP
 * (JSON QueuedProcessConfig): the HTTP app (`NestFactory.create`, workers
 * off) or a worker-only process (`NestFactory.createApplicationContext`, no
 * HTTP), both of the same AppModule and both with `enableShutdownHooks()`.
 * Its @OnPaymentEvent method appends `<role> <pid> <transactionId>` to the
 * records file, where it survives the process. Reports `{ url }` (the HTTP
 * app) or `{}` over IPC once ready.
 */
import 'reflect-metadata';
import { appendFileSync } from 'node:fs';
import { Injectable } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { PaymentEvent } from '@paymount/core';
import { OnPaymentEvent } from '../src';
import { queuedAppModule, type QueuedAppSettings } from './queued-app';

export interface QueuedProcessConfig {
  role: 'http' | 'worker';
  settings: QueuedAppSettings;
  records: string;
}

const raw = process.env['PAYMOUNT_NEST_APP'];
if (raw === undefined) throw new Error('PAYMOUNT_NEST_APP is not set');
const config = JSON.parse(raw) as QueuedProcessConfig;

@Injectable()
class Recorder {
  @OnPaymentEvent('payment.succeeded')
  record(event: PaymentEvent): void {
    appendFileSync(config.records, `${config.role} ${process.pid} ${event.transactionId}\n`);
  }
}

const AppModule = queuedAppModule(config.settings, [Recorder]);
const logger = ['error', 'warn'] as const;
if (config.role === 'http') {
  const app = await NestFactory.create(AppModule, { rawBody: true, logger: [...logger] });
  app.enableShutdownHooks();
  await app.listen(0, '127.0.0.1');
  process.send?.({ url: (await app.getUrl()).replace('[::1]', '127.0.0.1') });
} else {
  const app = await NestFactory.createApplicationContext(AppModule, { logger: [...logger] });
  app.enableShutdownHooks();
  process.send?.({});
}
