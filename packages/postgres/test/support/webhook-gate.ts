import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerHeaders, readDelivery } from '../../../../tools/webhook-forwarding';

export interface WebhookGate {
  /** The notifyUrl to give the shop. */
  url: string;
  /** Deliveries pass to the target from now on (the test decides when the shop hears of a payment). */
  open(): void;
  close(): Promise<void>;
}

/**
 * A notifyUrl in front of `target` (a shop's webhook URL) that answers every
 * delivery 503 until opened, so the service retries it and, once out of
 * attempts, keeps it for a resend; opened, it passes each delivery on byte
 * for byte and answers with the shop's answer.
 */
export async function startWebhookGate(target: string): Promise<WebhookGate> {
  let opened = false;
  const server = createServer((req, res) => {
    void (async () => {
      const { body, headers } = await readDelivery(req);
      if (!opened) return void res.writeHead(503).end('the test holds this delivery');
      const response = await fetch(target, { method: 'POST', headers, body }).catch(() => undefined);
      res.writeHead(response?.status ?? 502, response ? answerHeaders(response) : {}).end(response ? await response.text() : '');
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`,
    open: () => void (opened = true),
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
