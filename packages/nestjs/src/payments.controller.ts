import type { IncomingMessage, ServerResponse } from 'node:http';
import { All, Controller, Inject, Next, Req, Res, type Type } from '@nestjs/common';
import { PaymentRouteError, toNeutralRequest, writeNeutralResponse, type NeutralRequest } from '@paymount/core';
import { PaymentsService } from './payments.service';

/** What Nest's Express platform leaves on the request: the parsed body, and its bytes when `rawBody: true`. */
type NestRequest = IncomingMessage & { rawBody?: Buffer; params?: Record<string, unknown> };

/** The wildcard segments after the controller path, as Express 5 (array) or Express 4 (string) gives them. */
function routePath(params: Record<string, unknown> | undefined): string {
  const rest = params?.['path'];
  return `/${Array.isArray(rest) ? rest.join('/') : String(rest ?? '')}`;
}

function rawBodyMissing(): PaymentRouteError {
  return new PaymentRouteError(
    500,
    'RAW_BODY_MISSING',
    "Nest's body parser read this request without keeping its bytes, so paymount cannot check it. " +
      'Create the app with NestFactory.create(AppModule, { rawBody: true }).',
  );
}

/**
 * Nest's parser consumes JSON and form bodies before any controller; with
 * `rawBody: true` it keeps their exact bytes, which the routes parse (and the
 * webhook verifies) themselves. Other bodies are still in the stream.
 */
function neutralRequest(req: NestRequest, limitBytes: number): NeutralRequest {
  const request = toNeutralRequest(req, { path: routePath(req.params), context: req, limitBytes });
  if (!req.readableEnded) return request;
  if (req.rawBody) return { ...request, parsedBody: req.rawBody };
  return { ...request, readBody: () => Promise.reject(rawBodyMissing()) };
}

/**
 * A controller class per mount path: Nest reads a controller's path from its
 * decorator, so a configurable path needs a class made for it.
 */
export function createPaymentsController(path: string): Type<unknown> {
  @Controller(path)
  class PaymentsController {
    constructor(@Inject(PaymentsService) private readonly payments: PaymentsService) {}

    @All('*path')
    async serve(@Req() req: NestRequest, @Res() res: ServerResponse, @Next() next: () => void): Promise<void> {
      const { handlers } = this.payments;
      const response = await handlers.handle(neutralRequest(req, handlers.bodyLimitBytes));
      if (response === undefined) return next();
      writeNeutralResponse(res, response);
    }
  }
  return PaymentsController;
}
