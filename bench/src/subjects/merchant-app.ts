import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { childArgs, serveHarness } from '../harness/child-side';
import { handWrittenExpress, paymountExpress } from './apps/express-apps';
import { handWrittenFastify, paymountFastify } from './apps/fastify-apps';
import { handWrittenKoa, paymountKoa } from './apps/koa-apps';
import { handWrittenNest, paymountNest } from './apps/nest-apps';

export type Framework = 'express' | 'koa' | 'fastify' | 'nest' | 'nest-fastify';
export type RouteSide = 'paymount' | 'handwritten';

type Listen = (upstream: string) => Promise<Server>;

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
    paymount: async (upstream) => listenOnLoopback(paymountExpress(upstream)),
    handwritten: async (upstream) => listenOnLoopback(handWrittenExpress(upstream)),
  },
  koa: {
    paymount: async (upstream) => listenOnLoopback(paymountKoa(upstream)),
    handwritten: async (upstream) => listenOnLoopback(handWrittenKoa(upstream)),
  },
  fastify: {
    paymount: async (upstream) => listenFastify(await paymountFastify(upstream)),
    handwritten: async (upstream) => listenFastify(handWrittenFastify(upstream)),
  },
  nest: {
    paymount: async (upstream) => listenNest(await paymountNest(upstream, 'express')),
    handwritten: async (upstream) => listenNest(await handWrittenNest(upstream, 'express')),
  },
  'nest-fastify': {
    paymount: async (upstream) => listenNest(await paymountNest(upstream, 'fastify')),
    handwritten: async (upstream) => listenNest(await handWrittenNest(upstream, 'fastify')),
  },
};

/** A merchant app under load, alone in its process. */
serveHarness(async () => {
  const { framework, side, upstream } = childArgs<{ framework: Framework; side: RouteSide; upstream: string }>();
  const server = await APPS[framework][side](upstream);
  return { ready: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } };
});
