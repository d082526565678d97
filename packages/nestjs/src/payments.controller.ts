import type { IncomingMessage, ServerResponse } from 'node:http';
import { All, Controller, Inject, Next, Req, Res, type Type } from '@nestjs/common';
import { toNeutralRequest, writeNeutralResponse } from '@paymount/core';
import { PaymentsService } from './payments.service';

/** What Nest's Express platform leaves on the request: the parsed body, and its bytes when `rawBody: true`. */
type NestRequest = IncomingMessage & { body?: unknown; rawBody?: Buffer; params?: Record<string, unknown> };

/** The wildcard segments after the controller path, as Express 5 (array) or Express 4 (string) gives them. */
function routePath(params: Record<string, unknown> | undefined): string {
  const rest = params?.['path'];
  return `/${Array.isArray(rest) ? rest.join('/') : String(rest ?? '')}`;
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
      const response = await handlers.handle(
        toNeutralRequest(req, {
          path: routePath(req.params),
          // Nest's parser consumed JSON and form bodies; `rawBody: true` kept their exact bytes.
          parsedBody: req.readableEnded ? (req.rawBody ?? req.body) : undefined,
          context: req,
          limitBytes: handlers.bodyLimitBytes,
        }),
      );
      if (response === undefined) return next();
      writeNeutralResponse(res, response);
    }
  }
  return PaymentsController;
}
