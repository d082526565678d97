import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_FIELD_SCHEMAS, normalizeEvent } from '@paymount/core/internal';
import { PAYMENT_EVENT_TYPES } from '@paymount/core/webhooks';
import { startSandbox, WEBHOOK_EVENTS, type Sandbox } from '@paymount/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anchorsOf, builtPage } from './built-site';

/** The event catalog as written: one `## <type> {#anchor}` section per event type. */
const catalog = readFileSync(new URL('../reference/events.md', import.meta.url), 'utf8');

function section(type: string): string {
  const start = catalog.indexOf(`\n## ${type} {#`);
  if (start < 0) throw new Error(`site/reference/events.md has no section for ${type}`);
  const end = catalog.indexOf('\n## ', start + 1);
  return catalog.slice(start, end < 0 ? undefined : end);
}

/** The section's field table: each field and whether it is carried `always` or `when sent`. */
function fieldTable(type: string): Record<string, string> {
  return Object.fromEntries([...section(type).matchAll(/^\| `([A-Za-z]+)` \| (always|when sent) \|/gm)].map(([, field = '', carried = '']) => [field, carried]));
}

function samplePayload(type: string): Record<string, unknown> {
  const json = /```json\n([\s\S]*?)\n```/.exec(section(type))?.[1];
  if (json === undefined) throw new Error(`the ${type} section has no sample payload`);
  return JSON.parse(json) as Record<string, unknown>;
}

/** What core's schema of the event requires (`always`) and takes when sent. */
function schemaFields(type: (typeof WEBHOOK_EVENTS)[number]): Record<string, string> {
  const shape = (EVENT_FIELD_SCHEMAS[type] as unknown as { _zod: { def: { shape: Record<string, { _zod: { def: { type: string } } }> } } })._zod.def.shape;
  return Object.fromEntries(Object.entries(shape).map(([field, schema]) => [field, schema._zod.def.type === 'optional' ? 'when sent' : 'always']));
}

const keysOf = (value: unknown) => Object.keys(value as object).sort();

describe('the event catalog, held to core and to the sandbox', () => {
  let sandbox: Sandbox;
  let receiver: Server;
  let forwardTo: string;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end('{"received":true}'));
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    forwardTo = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/payments/webhook`;
    sandbox = await startSandbox({ allowLocalNotifyUrl: true, log: () => undefined });
  });

  afterAll(async () => {
    await sandbox.close();
    receiver.close();
  });

  it('every event type of core has its entry, with an anchor in the built page', () => {
    const anchors = anchorsOf(builtPage('reference/events.html'));
    for (const type of PAYMENT_EVENT_TYPES) {
      expect(section(type)).toContain(`{#${type.replace('.', '-')}}`);
      expect(anchors.has(type.replace('.', '-'))).toBe(true);
    }
  });

  it.each(WEBHOOK_EVENTS)("%s: the fields listed are those core's schema requires and takes when sent", (type) => {
    expect(fieldTable(type)).toEqual(schemaFields(type));
  });

  it.each(WEBHOOK_EVENTS)('%s: the sample payload is that event to core, with the fields of a delivery the sandbox sends', async (type) => {
    const sample = samplePayload(type);
    const event = normalizeEvent(sample, { deliveryId: 'delivery-1', timestamp: Date.parse('2026-01-01T00:00:00Z') });
    expect(event.type).toBe(type);
    const delivery = await sandbox.trigger(type, { forwardTo });
    expect(keysOf(sample)).toEqual(keysOf(delivery.payload));
    expect(keysOf(sample['amount'])).toEqual(keysOf(delivery.payload['amount']));
  });
});
