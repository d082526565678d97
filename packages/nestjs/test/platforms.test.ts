import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { PaymentError } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { postJson } from '../../../tools/conformance/http';
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

