import {
  Controller,
  Get,
  Inject,
  Injectable,
  Module,
  SetMetadata,
  type CanActivate,
  type DynamicModule,
  type ExecutionContext,
} from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import type { PaymentEvent } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdapterFixture, type AdapterFixture } from '../../../tools/adapter-testing';
import { freshOrderId } from '../../../tools/conformance/fixtures';
import { postJson, send } from '../../../tools/conformance/http';
import { OnPaymentEvent, PaymentsModule } from '../src';
import { NEST_PLATFORMS, startNestApp, type NestTestApp } from './support';

/** The `@Public()` most Nest apps write for their auth guard's exemptions. */
const IS_PUBLIC = 'isPublic';
const Public = () => SetMetadata(IS_PUBLIC, true);

const SESSION = { authorization: 'Bearer shopper-session' };

/** A global auth guard: every route needs the session header unless marked @Public(). */
@Injectable()
class SessionGuard implements CanActivate {
  constructor(@Inject(Reflector) private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    return request.headers['authorization'] === SESSION.authorization;
  }
}

@Controller('account')
class AccountController {
  @Get()
  show(): { account: string } {
    return { account: 'shopper' };
  }
}

@Injectable()
class PaidOrders {
  readonly paid: PaymentEvent[] = [];

  @OnPaymentEvent('payment.succeeded')
  markPaid(event: PaymentEvent): void {
    this.paid.push(event);
  }
}

let fixture: AdapterFixture;
beforeAll(async () => {
  fixture = await startAdapterFixture();
});
afterAll(() => fixture.close());

function appModule(payments: DynamicModule): DynamicModule {
  @Module({})
  class AppModule {}
  return {
    module: AppModule,
    imports: [payments],
    controllers: [AccountController],
    providers: [PaidOrders, { provide: APP_GUARD, useClass: SessionGuard }],
  };
}

/**
 * Pays a new order with the shopper's session and waits for the sandbox to finish delivering its webhook. A new order
 * each time: the sandbox outlives each case's app, and it answers an order's payment again with its first.
 */
async function payAndDeliver(app: NestTestApp, headers: Record<string, string> = {}) {
  const paid = await postJson(`${app.url}/payments/wallet/pay`, { orderId: freshOrderId(), token: fixture.sandbox.mintWalletToken() }, headers);
  expect(paid.json).toMatchObject({ status: 'succeeded' });
  const { transactionId } = paid.json as { transactionId: string };
  await fixture.sandbox.waitForDeliveries();
  const delivery = fixture.sandbox.deliveries().find((d) => d.payload['transactionId'] === transactionId);
  return { transactionId, delivery, handled: app.app.get(PaidOrders).paid.map((event) => event.transactionId) };
}

describe.each(NEST_PLATFORMS)('a global auth guard on the %s platform', (platform) => {
  describe('without an exemption for the payment routes', () => {
    let app: NestTestApp;
    beforeAll(async () => {
      app = await startNestApp(appModule(PaymentsModule.forRoot(fixture.options)), { platform });
      fixture.mountedAt(`${app.url}/payments`);
    });
    afterAll(() => app.close());

    it('guards the payment routes like any other', async () => {
      expect((await postJson(`${app.url}/payments/checkout`, { orderId: 'order-1' })).status).toBe(403);
    });

    it("refuses the service's webhook, every attempt, so no handler runs", async () => {
      const { delivery, handled } = await payAndDeliver(app, SESSION);
      expect(delivery?.state).toBe('failed');
      expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([403, 403, 403]);
      expect(handled).toEqual([]);
    });
  });

  describe.each([
    ['forRoot', () => PaymentsModule.forRoot({ ...fixture.options, controllerDecorators: [Public()] })],
    [
      'forRootAsync',
      () => PaymentsModule.forRootAsync({ useFactory: () => fixture.options, controllerDecorators: [Public()] }),
    ],
  ])('with controllerDecorators: [Public()] given to %s', (_method, payments) => {
    let app: NestTestApp;
    beforeAll(async () => {
      app = await startNestApp(appModule(payments()), { platform });
      fixture.mountedAt(`${app.url}/payments`);
    });
    afterAll(() => app.close());

    it("receives and handles the service's webhook", async () => {
      const { transactionId, delivery, handled } = await payAndDeliver(app);
      expect(delivery?.state).toBe('delivered');
      expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([200]);
      expect(handled).toEqual([transactionId]);
    });

    it('serves a checkout without the session', async () => {
      // order-1 is paid by now; a checkout is only opened, so the order the sandbox would decline does.
      const res = await postJson(`${app.url}/payments/checkout`, { orderId: 'order-declined' });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ checkoutUrl: expect.stringContaining(fixture.sandbox.url) });
    });

    it("still guards the app's other routes", async () => {
      expect((await send(`${app.url}/account`)).status).toBe(403);
      expect((await send(`${app.url}/account`, { headers: SESSION })).json).toEqual({ account: 'shopper' });
    });
  });
});
