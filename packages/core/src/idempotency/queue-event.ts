import { PaymentStoreUnavailableError } from '../errors';
import type { EventProcessing } from '../webhooks/event-processing';
import type { PaymentEvent } from '../webhooks/event';
import type { QueuedEventSeal } from '../webhooks/queued-event-seal';
import { holderStateOf } from './checked-store';
import { dedupeKeyOf } from './dedupe-key';
import type { IdempotencyStore } from './store';

/**
 * Hands `event` to queued processing unless its handlers already ran to
 * success. Only read here, never written: the worker claims the key when it
 * runs the job, so a replay or a duplicate delivery leaves the store as it
 * was, and the queue's one job per key absorbs copies of an event that is
 * waiting or running. The job is sealed (see queuedEventSeal), so that a
 * worker can tell it from one written to the queue by anyone else. A store or queue failure is a
 * PaymentStoreUnavailableError (503: the service retries).
 */
export async function queueEvent(
  event: PaymentEvent,
  deps: { store: IdempotencyStore; processing: EventProcessing; seal: QueuedEventSeal },
): Promise<'queued' | 'duplicate'> {
  const key = await dedupeKeyOf(event);
  if ((await holderStateOf(deps.store, key)) === 'done') return 'duplicate';
  try {
    await deps.processing.enqueue({ key, event, mac: await deps.seal.seal(key, event) });
  } catch (error) {
    throw PaymentStoreUnavailableError.from(error, 'event queue');
  }
  return 'queued';
}
