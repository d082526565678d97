import { All, Controller, Inject, Next, Req, Res, type Type } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PaymentErrorCode, PaymentRouteError } from '@paymount/core';
import { toNeutralRequest, type NeutralRequest } from '@paymount/core/http';
import { nestPlatform, type NestPlatform } from './nest-platform';
import { PaymentsService } from './payments.service';

function rawBodyMissing(): PaymentRouteError {
  return new PaymentRouteError(
    500,
    PaymentErrorCode.RAW_BODY_MISSING,
    "Nest's body parser read this request without keeping its bytes, so paymount cannot check it. " +
      'Create the app with `await NestFactory.create(AppModule, { rawBody: true });` ' +
      '(on Fastify: `await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), { rawBody: true });`).',
  );
}

/**
 * Nest's parser consumes JSON and form bodies before any controller; with
 * `rawBody: true` it keeps their exact bytes, which the routes parse (and the
 * webhook verifies) themselves. Other bodies are still in the stream. What it
 * parsed is not handed on: without the bytes, the fix is `rawBody: true`.
 */
function neutralRequest(platform: NestPlatform, req: unknown, limitBytes: number): NeutralRequest | undefined {
  const { node, rawBody, path } = platform.read(req);
  if (path === undefined) return undefined;
  return toNeutralRequest(node, { path, context: req, limitBytes, bodyParser: { rawBody }, consumedBodyError: rawBodyMissing });
}

/**
 * A controller class per module: Nest reads a controller's path and its
 * enhancers (guards, interceptors, metadata such as `@Public()`) from its
 * decorators, so a configurable path and the merchant's decorators need a
 * class made for them.
 */
export function createPaymentsController(path: string, decorators: readonly ClassDecorator[]): Type<unknown> {
  @Controller(path)
  class PaymentsController {
    /** Set whenever there is an HTTP platform, the only case in which a route calls serve(). */
    private readonly platform!: NestPlatform;

    constructor(
      @Inject(PaymentsService) private readonly payments: PaymentsService,
      @Inject(HttpAdapterHost) host: HttpAdapterHost,
    ) {
      // NestFactory.createApplicationContext (a worker-only process) has no HTTP platform: nothing to serve.
      if (!host.httpAdapter) return;
      // The platform is known only once the app is created, and Nest registers routes after creating controllers,
      // so the route's wildcard is decorated here, in the spelling of the platform's router.
      this.platform = nestPlatform(host.httpAdapter.getType());
      const serve = Object.getOwnPropertyDescriptor(PaymentsController.prototype, 'serve');
      if (serve) All(this.platform.wildcard)(PaymentsController.prototype, 'serve', serve);
    }

    async serve(@Req() req: unknown, @Res() res: unknown, @Next() next?: () => void): Promise<void> {
      const { paymentRoutes } = this.payments;
      const request = neutralRequest(this.platform, req, paymentRoutes.readLimitBytes);
      const response = request === undefined ? undefined : await paymentRoutes.handle(request);
      if (response === undefined) return this.platform.passOn(res, next);
      this.platform.write(res, response);
    }
  }
  // Last to first, as stacked decorators apply; a decorator may return a class to use instead. What is not
  // a decorator is refused by PaymentsService with the other options, when the app is created.
  const applicable = Array.isArray(decorators) ? decorators.filter((decorate) => typeof decorate === 'function') : [];
  return applicable.reduceRight<Type<unknown>>((target, decorate) => decorate(target) ?? target, PaymentsController);
}
