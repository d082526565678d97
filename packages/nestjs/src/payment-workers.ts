import { PaymentValidationError, type EventProcessing, type PaymentRoutes } from '@paymount/core';
import type { NestPlatformRequest } from './nest-platform';
import type { PaymentWorkers, StartPaymentWorkers } from './payments.options';

const EXAMPLE = '(routes) => startWebhookWorkers(queue, { routes })';

function refused(rule: string, message: string): PaymentValidationError {
  return new PaymentValidationError('PaymentsModule options', [{ path: 'workers', rule, message }]);
}

/**
 * The `workers` option at work: its type checked with the other options, started on
 * the module's routes once every `@OnPaymentEvent` method is subscribed, and
 * closed before what their running jobs use (the routes' client and stores,
 * the handlers) goes away.
 */
export class PaymentWorkersHost {
  private running: PaymentWorkers | undefined;

  constructor(
    private readonly start: StartPaymentWorkers | undefined,
    processing: EventProcessing | undefined,
  ) {
    // Its type is checked with the routes' options (NEST_OPTIONS).
    if (start === undefined) return;
    if (processing === undefined) {
      throw refused('requires', 'runs queued events, and webhook.processing is not set: give it the queue the workers take their jobs from (createWebhookQueue() of @paymount/bullmq)');
    }
  }

  startOn(routes: PaymentRoutes<NestPlatformRequest>): void {
    if (this.start === undefined) return;
    const running = this.start(routes);
    if (typeof running?.close !== 'function') throw refused('type', `must return the workers it started (an object with close()), e.g. ${EXAMPLE}`);
    this.running = running;
  }

  /** Resolves once the running jobs have finished; the waiting ones stay queued. */
  async close(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    await running?.close();
  }
}
