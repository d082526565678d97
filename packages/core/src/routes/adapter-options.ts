// The rules of an adapter's own options.
import * as z from 'zod/mini';
import { fn } from '../schemas/client-options';

/** What an adapter's own option is checked as: see each rule in ADAPTER_OPTION_RULES. */
export type AdapterOptionKind = 'mountPath' | 'routerPath' | 'boolean' | 'classDecorators' | 'startWorkers';

/**
 * The rules of the options an adapter takes beside the routes' own (Koa's
 * `mountPath`, Fastify's `prefix`, Nest's module settings), by kind. An
 * adapter names each of its options' kind (AdapterOptionKinds) and hands them
 * to `createPaymentRoutes`, which checks them with the routes' options: a
 * misspelt one is answered with the closest name among all of them, and every
 * issue comes in one error.
 */
const ADAPTER_OPTION_RULES: Readonly<Record<AdapterOptionKind, z.ZodMiniType>> = {
  /** A path from the root that the adapter matches requests against itself (Koa's `mountPath`): '/payments', '' for the root. */
  mountPath: z.string("must be a path from the root such as '/payments'").check(
    z.regex(/^(?:\/[^\s?#]*)?$/, "must be a path from the root such as '/payments' (starting with /, no query, no spaces)"),
  ),
  /** A path the framework's router puts the routes under (Fastify's `prefix`, Nest's controller path): '/payments' or 'payments'. */
  routerPath: z.string("must be a path such as '/payments'").check(z.regex(/^[^\s?#]*$/, "must be a path such as '/payments' (no query, no spaces)")),
  boolean: z.boolean('must be true or false'),
  /** Decorators a framework applies to the class serving the routes (Nest's `controllerDecorators`). */
  classDecorators: z.array(fn('must be a class decorator such as Public()', 'type'), 'must be a list of class decorators such as [Public()]'),
  /** Starts the workers of queued processing on the routes (Nest's `workers`). */
  startWorkers: fn('must be a function (routes) => workers, such as (routes) => startWebhookWorkers(queue, { routes })', 'type'),
};

/** An adapter's own options beside the routes' (`{ mountPath: 'mountPath' }`), by name: the kind each is checked as. */
export type AdapterOptionKinds = Readonly<Record<string, AdapterOptionKind>>;

/** The routes' options schema with an adapter's own options beside them, each optional. */
export function withAdapterOptions<S extends z.ZodMiniObject>(schema: S, kinds: AdapterOptionKinds | undefined): z.ZodMiniObject {
  if (kinds === undefined) return schema;
  return z.extend(schema, Object.fromEntries(Object.entries(kinds).map(([name, kind]) => [name, z.optional(ADAPTER_OPTION_RULES[kind])])));
}
