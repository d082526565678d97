import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { childArgs, serveHarness } from '../harness/child-side';
import { handWrittenExpress, paymountExpress } from './apps/express-apps';
import { handWrittenFastify, paymountFastify } from './apps/fastify-apps';
import { handWrittenKoa, paymountKoa } from './apps/koa-apps';
import { handWrittenNest, paymountNest } from './apps/nest-apps';
import { setupOf, type AppSetup, type AppVariant } from './apps/paymount-options';
import { startQueuedWorkers } from './apps/queued-workers';

export type Framework = 'express' | 'koa' | 'fastify' | 'nest' | 'nest-fastify';
export type RouteSide = 'paymount' | 'handwritten';

type Listen = (upstream: string, setup?: AppSetup) => Promise<Server>;

export interface MerchantAppArgs {
  framework: Framework;
  side: RouteSide;
  upstream: string;
  /** The paymount side's setup, where a figure changes it. */
  variant?: AppVariant;
}

const listenOnLoopback = (app: { listen(port: number, host: string, done: () => void): Server }): Promise<Server> =>
  new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });

async function listenNest(app: INestApplication): Promise<Server> {
  await app.listen(0, '127.0.0.1');
  return app.getHttpServer() as Server;
}

async function listenFastify(app: FastifyInstance): Promise<Server> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app.server;
}

/** Each framework's app, paymount-mounted or hand-written, listening on a free loopback port. */
const APPS: Record<Framework, Record<RouteSide, Listen>> = {
  express: {
    paymount: async (upstream, setup) => listenOnLoopback(paymountExpress(upstream, setup)),
    handwritten: async (upstream) => listenOnLoopback(handWrittenExpress(upstream)),
  },
  koa: {
    paymount: async (upstream, setup) => listenOnLoopback(paymountKoa(upstream, setup)),
    handwritten: async (upstream) => listenOnLoopback(handWrittenKoa(upstream)),
  },
  fastify: {
    paymount: async (upstream, setup) => listenFastify(await paymountFastify(upstream, setup)),
    handwritten: async (upstream) => listenFastify(handWrittenFastify(upstream)),
  },
  nest: {
    paymount: async (upstream, setup) => listenNest(await paymountNest(upstream, 'express', setup)),
    handwritten: async (upstream) => listenNest(await handWrittenNest(upstream, 'express')),
  },
  'nest-fastify': {
    paymount: async (upstream, setup) => listenNest(await paymountNest(upstream, 'fastify', setup)),
    handwritten: async (upstream) => listenNest(await handWrittenNest(upstream, 'fastify')),
  },
};

/** A merchant app under load, alone in its process. */
serveHarness(async () => {
  const { framework, side, upstream, variant } = childArgs<MerchantAppArgs>();
  const setup = await setupOf(variant);
  const server = await APPS[framework][side](upstream, setup);
  if (variant?.queue !== undefined && variant.queue.concurrency > 0) startQueuedWorkers(upstream, setup, variant.queue);
  return { ready: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } };
});
