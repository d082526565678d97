import { Controller, Inject, Injectable, Module } from '@nestjs/common';
import type { PaymentClosedEvent, PaymentEvent, PaymentFailedEvent, PaymentRoutesOptions, PaymentSucceededEvent } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { postJson, postRaw, send } from '../../../tools/conformance/http';
import { OnPaymentEvent, PAYMENTS_MODULE_OPTIONS, PaymentsModule, PaymentsService, type PaymentsModuleOptions } from '../src';
import { startNestApp, type NestTestApp } from './support';

let fixture: AdapterFixture;
beforeAll(async () => {
  fixture = await startAdapterFixture();
});
afterAll(() => fixture.close());

/** A merchant provider: its decorated methods must be found and run once per event. */
@Injectable()
class OrderNotifications {
  readonly paid: PaymentSucceededEvent[] = [];
  readonly everything: PaymentEvent[] = [];

  @OnPaymentEvent('payment.succeeded')
  markPaid(event: PaymentSucceededEvent): void {
    this.paid.push(event);
  }

  @OnPaymentEvent('*')
  audit(event: PaymentEvent): void {
    this.everything.push(event);
  }
}

/** A merchant controller with a handler of its own, to show controllers are discovered too. */
@Controller('shop')
class ShopController {
  readonly failed: string[] = [];

  @OnPaymentEvent('payment.failed', 'payment.closed')
  reopen(event: PaymentFailedEvent | PaymentClosedEvent): void {
    this.failed.push(event.transactionId);
  }
}

/** A merchant service that uses the client through PaymentsService. */
@Injectable()
class Billing {
  constructor(@Inject(PaymentsService) readonly payments: PaymentsService) {}
}

describe('PaymentsModule.forRoot with rawBody: true', () => {
  let app: NestTestApp;
  let routesUrl: string;
  beforeAll(async () => {
    @Module({
      imports: [PaymentsModule.forRoot(fixture.options)],
      controllers: [ShopController],
      providers: [OrderNotifications, Billing],
    })
    class AppModule {}
    app = await startNestApp(AppModule);
    routesUrl = `${app.url}/payments`;
    fixture.mountedAt(routesUrl);
  });
  afterAll(() => app.close());

  it('serves JSON and form checkouts from the bytes Nest kept', async () => {
    expect((await postJson(`${routesUrl}/checkout`, { orderId: 'order-1' })).status).toBe(201);
    const form = await postRaw(`${routesUrl}/checkout`, 'orderId=order-1', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(303);
    expect(form.location?.startsWith(fixture.sandbox.url)).toBe(true);
  });

  it('reads bodies Nest does not parse from the stream', async () => {
    const res = await postRaw(`${routesUrl}/checkout`, 'orderId=order-1', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
  });

  it('leaves malformed JSON to Nest, whose parser answers it before any controller', async () => {
    const res = await postRaw(`${routesUrl}/checkout`, '{"orderId":', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
  });

  it('runs each @OnPaymentEvent method exactly once for a signed delivery, and not again for its duplicate', async () => {
    const notifications = app.app.get(OrderNotifications);
    const delivery = fixture.delivery('TX-nest-paid');
    expect((await postRaw(`${routesUrl}/webhook`, delivery.body, delivery.headers)).status).toBe(200);
    expect((await postRaw(`${routesUrl}/webhook`, delivery.body, delivery.headers)).json).toEqual({
      received: true,
      duplicate: true,
    });
    const forThis = (events: PaymentEvent[]) => events.filter((event) => event.transactionId === 'TX-nest-paid');
    expect(forThis(notifications.paid)).toHaveLength(1);
    expect(forThis(notifications.everything)).toHaveLength(1);
    expect(forThis(notifications.paid)[0]).toMatchObject({ type: 'payment.succeeded', referenceOrderId: 'order-0001' });
    expect(app.app.get(ShopController).failed).not.toContain('TX-nest-paid');
  });

  it('routes other event types to the methods that named them, on controllers too', async () => {
    const delivery = fixture.delivery('TX-nest-failed', { transactionStatus: 'F' });
    expect((await postRaw(`${routesUrl}/webhook`, delivery.body, delivery.headers)).status).toBe(200);
    expect(app.app.get(ShopController).failed).toEqual(['TX-nest-failed']);
    expect(app.app.get(OrderNotifications).paid.map((event) => event.transactionId)).not.toContain('TX-nest-failed');
  });

  it('gives merchant providers the client through PaymentsService', () => {
    const { client, paymentRoutes } = app.app.get(Billing).payments;
    expect(client.merchantId).toBe(fixture.sandbox.merchantId);
    expect(typeof paymentRoutes.handle).toBe('function');
  });

  it("leaves other paths under the controller's path to Nest", async () => {
    expect((await send(`${routesUrl}/no-such-route`)).status).toBe(404);
  });
});

describe('an app created without rawBody: true', () => {
  let app: NestTestApp;
  let routesUrl: string;
  beforeAll(async () => {
    @Module({ imports: [PaymentsModule.forRoot(fixture.options)], providers: [OrderNotifications] })
    class AppModule {}
    app = await startNestApp(AppModule, { rawBody: false });
    routesUrl = `${app.url}/payments`;
    fixture.mountedAt(routesUrl);
  });
  afterAll(() => app.close());

  it('refuses webhook deliveries with an error that says how to enable it, and runs no handler', async () => {
    const delivery = fixture.delivery('TX-nest-noraw');
    const res = await postRaw(`${routesUrl}/webhook`, delivery.body, delivery.headers);
    expect(res.status).toBe(500);
    const error = (res.json as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('RAW_BODY_MISSING');
    expect(error.message).toContain('NestFactory.create(AppModule, { rawBody: true })');
    expect(app.app.get(OrderNotifications).everything).toHaveLength(0);
  });
});

describe('PaymentsModule.forRootAsync with a config provider', () => {
  /** Stands in for @nestjs/config's ConfigService: the options come from an injected provider. */
  @Injectable()
  class ShopConfig {
    paymentOptions(): PaymentRoutesOptions {
      return fixture.options;
    }
  }

  @Module({ providers: [ShopConfig], exports: [ShopConfig] })
  class ShopConfigModule {}

  /** Another module of the app: it injects PaymentsService without importing PaymentsModule (isGlobal). */
  @Module({ providers: [Billing] })
  class BillingModule {}

  let app: NestTestApp;
  beforeAll(async () => {
    @Module({
      imports: [
        PaymentsModule.forRootAsync({
          imports: [ShopConfigModule],
          inject: [ShopConfig],
          useFactory: (config: ShopConfig) => config.paymentOptions(),
          mountPath: 'checkout-api/pay',
          isGlobal: true,
        }),
        BillingModule,
      ],
      providers: [OrderNotifications],
    })
    class AppModule {}
    app = await startNestApp(AppModule);
    fixture.mountedAt(`${app.url}/checkout-api/pay`);
  });
  afterAll(() => app.close());

  it('serves the routes at the configured path only', async () => {
    expect((await postJson(`${app.url}/checkout-api/pay/checkout`, { orderId: 'order-1' })).status).toBe(201);
    expect((await postJson(`${app.url}/payments/checkout`, { orderId: 'order-1' })).status).toBe(404);
  });

  it('makes PaymentsService injectable in every module, and discovers handlers as with forRoot', async () => {
    expect(app.app.get(Billing).payments.client.appId).toBe(fixture.sandbox.appId);
    const delivery = fixture.delivery('TX-nest-async');
    expect((await postRaw(`${app.url}/checkout-api/pay/webhook`, delivery.body, delivery.headers)).status).toBe(200);
    expect(app.app.get(OrderNotifications).paid.map((event) => event.transactionId)).toEqual(['TX-nest-async']);
  });
});

describe('an app with a global prefix', () => {
  let app: NestTestApp;
  beforeAll(async () => {
    @Module({ imports: [PaymentsModule.forRoot(fixture.options)] })
    class AppModule {}
    app = await startNestApp(AppModule, { globalPrefix: 'api' });
    fixture.mountedAt(`${app.url}/api/payments`);
  });
  afterAll(() => app.close());

  it('serves the routes under it', async () => {
    expect((await postJson(`${app.url}/api/payments/checkout`, { orderId: 'order-1' })).status).toBe(201);
    const delivery = fixture.delivery('TX-nest-prefixed');
    expect((await postRaw(`${app.url}/api/payments/webhook`, delivery.body, delivery.headers)).status).toBe(200);
  });
});

describe('`path`, the old name of mountPath, removed at 0.1.0', () => {
  it('reaches the routes options, which refuse it at start-up instead of serving at the default path', () => {
    const module = PaymentsModule.forRoot({ ...fixture.options, path: 'old-pay' } as PaymentRoutesOptions);
    const given = module.providers?.find(
      (provider): provider is { provide: symbol; useValue: PaymentsModuleOptions } =>
        typeof provider === 'object' && 'provide' in provider && provider.provide === PAYMENTS_MODULE_OPTIONS,
    );
    expect(given?.useValue).toMatchObject({ path: 'old-pay' });
    expect(() => new PaymentsService(given!.useValue)).toThrow(/path/);
  });
});
