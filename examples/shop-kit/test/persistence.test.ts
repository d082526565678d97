import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@paymount/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkTypeScript, type ForkedProcess } from '../../../tools/forked-process';
import { pgliteDataDir, type PGliteDataDir } from '../../../tools/pglite-data-dir';
import { postgresSkipped, startPostgresServer, type PostgresServer } from '../../../tools/postgres-server';
import { readShopConfig } from '../src/config';
import { startShopServer, type RunningShop } from '../src/server';
import { MOUNT_PATH } from '../src/shop';
import { nodeApp } from './support/node-app';
import type { FromFolderProcess } from './support/pglite-folder-process';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const folderProcess = fileURLToPath(new URL('./support/pglite-folder-process.ts', import.meta.url));

/** A shop process of its own opening `dir` as a shop starts: what it reported (opened, or refused and why), and the process. */
function openFromAnotherProcess(dir: string): Promise<ForkedProcess & { ready: FromFolderProcess }> {
  return forkTypeScript(folderProcess, { cwd: packageDir, env: { PAYMOUNT_DATA_DIR: dir } }, (message: FromFolderProcess) => message);
}

const heldBy = (pid: number | undefined, dir: string) =>
  `Another process (pid ${pid}) keeps its data in ${dir}, and PGlite serves one process at a time. Stop that shop, or give this one a PostgreSQL server through DATABASE_URL.`;

const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const UPDATED = 'order updated from a payment event';

/** Where a shop keeps its orders: a PGlite folder, or a PostgreSQL server through DATABASE_URL. */
interface Place {
  options(): { dataDir?: string; databaseUrl?: string };
}

function start(place: Place, logger: Logger = silent, retryDelaysMs: number[] = [20, 40]): Promise<RunningShop> {
  const { dataDir, databaseUrl } = place.options();
  const config = { ...readShopConfig(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }), port: 0 };
  return startShopServer('Test shop', { config, logger, sandbox: { webhookRetryDelaysMs: retryDelaysMs }, ...(dataDir ? { dataDir } : {}) }, (shop) => nodeApp(shop));
}

async function payByWallet(running: RunningShop, orderId: string): Promise<Response> {
  return fetch(`${running.url}${MOUNT_PATH}/wallet/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId, token: running.sandbox!.mintWalletToken() }),
  });
}

function describePersistence(name: string, skip: boolean, open: () => Promise<Place & { remove(): void }>): void {
  describe.skipIf(skip)(`${name}: the shop's orders`, () => {
    let place: (Place & { remove(): void }) | undefined;
    beforeAll(async () => {
      place = await open();
    });
    afterAll(() => place?.remove());

    it('survive a restart of the shop: a paid order is still paid, with its payment, and is not charged again', async () => {
      const first = await start(place!);
      const order = await first.shop.orders.create(first.shop.catalog[0]!);
      expect(await (await payByWallet(first, order.id)).json()).toMatchObject({ status: 'succeeded' });
      await first.sandbox!.waitForDeliveries();
      const paid = await first.shop.orders.get(order.id);
      expect(paid).toMatchObject({ status: 'paid', paymentTransactionId: expect.any(String) });
      const pending = await first.shop.orders.create(first.shop.catalog[1]!);
      await first.close();

      const second = await start(place!);
      try {
        expect(await second.shop.orders.get(order.id)).toEqual(paid);
        expect(await second.shop.orders.get(pending.id)).toEqual(pending);
        expect((await second.shop.orderPage(order.id)).body).toContain('Payment received. Thank you!');
        const again = await payByWallet(second, order.id);
        expect(again.status).toBe(409);
        expect(await again.json()).toMatchObject({ error: { code: 'ORDER_NOT_PAYABLE' } });
        expect(second.sandbox!.charges()).toEqual([]);
      } finally {
        await second.close();
      }
    });

    it('a payment handler that fails after the shop wrote rolls the write back; the redelivery applies it once', async () => {
      let failures = 0;
      // Anything after the order's UPDATE in the handler may throw: here the log line that follows it, once.
      const failingOnce: Logger = {
        ...silent,
        info: (_fields: unknown, message?: string) => {
          if (message === UPDATED && failures === 0) {
            failures += 1;
            throw new Error('the handler failed after writing the order');
          }
        },
      };
      const running = await start(place!, failingOnce, []);
      try {
        const order = await running.shop.orders.create(running.shop.catalog[0]!);
        expect(await (await payByWallet(running, order.id)).json()).toMatchObject({ status: 'succeeded' });
        await running.sandbox!.waitForDeliveries();
        const [delivery] = running.sandbox!.deliveries();
        expect(delivery?.attempts.map((attempt) => attempt.status)).toEqual([500]);
        expect(failures).toBe(1);
        // The UPDATE ran, then the transaction rolled back: the order is as it was, and the event is not marked handled.
        expect(await running.shop.orders.get(order.id)).toMatchObject({ status: 'pending', note: 'Awaiting payment.' });
        expect(await running.shop.orders.get(order.id)).not.toHaveProperty('paymentTransactionId');

        const resent = await running.sandbox!.resend(delivery!.deliveryId);
        expect(resent.attempts.at(-1)?.status).toBe(200);
        expect(await running.shop.orders.get(order.id)).toMatchObject({ status: 'paid', paymentTransactionId: delivery!.payload['transactionId'] });
      } finally {
        await running.close();
      }
    });
  });
}

describePersistence('PGlite in a data folder', false, async () => {
  const folder: PGliteDataDir = await pgliteDataDir();
  return { options: () => ({ dataDir: folder.dir }), remove: () => folder.remove() };
});

describePersistence('PostgreSQL through DATABASE_URL', postgresSkipped, async () => {
  const server: PostgresServer = await startPostgresServer();
  return { options: () => ({ databaseUrl: server.url }), remove: () => server.destroy() };
});

describe('PGlite in a data folder', () => {
  it('a second shop process on the folder is refused, naming the first and what to do; once the first is killed (SIGKILL), a restart opens it', async () => {
    const folder = await pgliteDataDir();
    const started: ForkedProcess[] = [];
    const open = async () => {
      const forked = await openFromAnotherProcess(folder.dir);
      started.push(forked);
      return forked;
    };
    try {
      const first = await open();
      expect(first.ready).toEqual({ kind: 'opened' });
      expect((await open()).ready).toEqual({ kind: 'refused', message: heldBy(first.child.pid, folder.dir) });
      first.child.kill('SIGKILL');
      await first.exited;
      expect((await open()).ready).toEqual({ kind: 'opened' });
    } finally {
      for (const forked of started) {
        if (forked.child.exitCode === null && forked.child.signalCode === null) forked.child.kill('SIGKILL');
        await forked.exited;
      }
      folder.remove();
    }
  // Three processes each starting PGlite: slow on a loaded machine, whatever the verdict.
  }, 180_000);

  it('serves one shop: a second on the folder is refused with what to do, and takes it once the first stopped or died, under another pid or its own', async () => {
    const folder = await pgliteDataDir();
    try {
      const first = await start({ options: () => ({ dataDir: folder.dir }) });
      await expect(start({ options: () => ({ dataDir: folder.dir }) })).rejects.toThrow(heldBy(process.pid, folder.dir));
      await first.close();
      // A shop killed without a chance to let go (SIGKILL) leaves its lock: a process that no longer runs holds nothing.
      const dead = spawnSync(process.execPath, ['-e', '0']).pid;
      writeFileSync(join(folder.dir, 'paymount-pglite.lock'), String(dead));
      await (await start({ options: () => ({ dataDir: folder.dir }) })).close();
      // A container's shop restarted after a SIGKILL runs under the pid its predecessor had: a lock this process never took is a previous life's.
      writeFileSync(join(folder.dir, 'paymount-pglite.lock'), String(process.pid));
      await (await start({ options: () => ({ dataDir: folder.dir }) })).close();
    } finally {
      folder.remove();
    }
  }, 120_000);
});
