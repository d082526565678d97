import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { PaymentError } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { postJson, postRaw } from '../../../tools/conformance/http';
import { PaymentsModule } from '../src';
import { startNestApp, type NestTestApp } from './support';

let fixture: AdapterFixture;
beforeAll(async () => {
  fixture = await startAdapterFixture();
});
afterAll(() => fixture.close());

describe('PaymentsModule on the Fastify platform', () => {
  let app: NestTestApp;
  beforeAll(async () => {
    @Module({ imports: [PaymentsModule.forRoot(fixture.options)] })
    class AppModule {}
    // Before the wildcard was chosen per platform this threw find-my-way's "Wildcard must be the last character in the route".
    app = await startNestApp(AppModule, { platform: 'fastify' });
    fixture.mountedAt(`${app.url}/payments`);
  });
  afterAll(() => app.close());

  it('starts and serves a checkout', async () => {
    const res = await postJson(`${app.url}/payments/checkout`, { orderId: 'order-1' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ checkoutUrl: expect.stringContaining(fixture.sandbox.url) });
  });
});

describe('PaymentsModule on the Fastify platform without rawBody: true', () => {
  let app: NestTestApp;
  beforeAll(async () => {
    @Module({ imports: [PaymentsModule.forRoot(fixture.options)] })
    class AppModule {}
    app = await startNestApp(AppModule, { platform: 'fastify', rawBody: false });
    fixture.mountedAt(`${app.url}/payments`);
  });
  afterAll(() => app.close());

  it('refuses webhook deliveries with the error that says how to enable it, and runs no handler', async () => {
    const delivery = fixture.delivery('TX-nest-fastify-noraw');
    const res = await postRaw(`${app.url}/payments/webhook`, delivery.body, delivery.headers);
    expect(res.status).toBe(500);
    const error = (res.json as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('RAW_BODY_MISSING');
    expect(error.message).toContain('`await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), { rawBody: true });`');
    expect(fixture.events.map((event) => event.transactionId)).not.toContain('TX-nest-fastify-noraw');
  });
});

/** A platform that is neither Express nor Fastify: Nest's adapters tell them apart by type only. */
class OtherPlatform extends ExpressAdapter {
  override getType(): string {
    return 'other';
  }
}

describe('a platform paymount cannot serve', () => {
  it('fails at start-up with a paymount error naming the supported platforms', async () => {
    @Module({ imports: [PaymentsModule.forRoot(fixture.options)] })
    class AppModule {}
    const starting = NestFactory.create(AppModule, new OtherPlatform(), {
      logger: false,
      abortOnError: false,
    });
    await expect(starting).rejects.toThrow(PaymentError);
    await expect(starting).rejects.toThrow(/"other".*@nestjs\/platform-express.*@nestjs\/platform-fastify/);
  });
});

