// @ts-check
/**
 * Core's layers, lowest first: a file imports only from its own layer and the layers below it, and
 * no two files import each other, even through others. ARCHITECTURE.md says what each layer holds.
 * Run by `npm run lint` (and so by the repository's `npm test`); test/layers.test.ts shows a
 * planted violation of each kind fails.
 */
const LAYERS = [
  'shared', // errors, logger, validation, bytes, money, the public data types: imports no other layer
  'http', // the framework-neutral request and answer, body reading, errors as answers
  'platform', // what differs by runtime: crypto, transport, the Node and fetch bridges
  'schemas', // zod rules of the service's requests and of the client's options
  'telemetry', // the tracer and the client's call spans
  'client', // the payment service client
  'webhooks', // verifying a delivery and reading its event
  'webhook-dedupe', // handling an event once, inline or queued
  'orders', // the order guard: one order, one charge
  'routes', // the payment routes, their options and their composition
];
/** The entries (src/index.ts, src/entries/) sit on top: only they may import everything, and nothing imports them. */
const ENTRIES = '^src/(index\\.ts$|entries/)';

/** @type {import('dependency-cruiser').IConfiguration['forbidden']} */
const layerRules = LAYERS.map((layer, index) => ({
  name: `${layer}-imports-below`,
  comment: `src/${layer} may import only ${LAYERS.slice(0, index).join(', ') || 'no other layer'} (and itself).`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LAYERS.slice(index + 1).join('|') || '(?!)'})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Files import one way: a cycle, however long, is a layer folded onto itself.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'entries-on-top',
      comment: 'Nothing in a layer imports an entry: the entries gather the layers, never the other way.',
      severity: 'error',
      from: { path: '^src/', pathNot: ENTRIES },
      to: { path: ENTRIES },
    },
    {
      name: 'platform-contract-first',
      comment: "Within the platform: the contract (platform/contract) knows no platform; a platform (node, web) knows only the contract; only the bindings (platform/current*) pick one.",
      severity: 'error',
      from: { path: '^src/platform/(contract|node|web)/' },
      to: { path: '^src/platform/current' },
    },
    {
      name: 'platform-contract-knows-no-platform',
      severity: 'error',
      from: { path: '^src/platform/contract/' },
      to: { path: '^src/platform/(node|web)/' },
    },
    {
      name: 'platforms-apart',
      comment: 'The Node and web platforms do not import each other.',
      severity: 'error',
      from: { path: '^src/platform/(node|web)/' },
      to: { path: '^src/platform/(node|web)/', pathNot: '^src/platform/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a type from a layer above ties a file to it as much as a value does.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Every source file is a node, the web twins (platform/*.web.ts, schemas/compiled.no-eval.ts) too.
    exclude: { path: 'node_modules' },
  },
};
