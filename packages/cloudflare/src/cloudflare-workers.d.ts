// The runtime's module, as far as these stores use it; a Worker project's own types (wrangler's or
// @cloudflare/workers-types) declare it in full.
declare module 'cloudflare:workers' {
  export abstract class DurableObject<Env = unknown> {
    // eslint-disable-next-line @typescript-eslint/consistent-type-imports -- an ambient module may not import a relative path
    protected ctx: { storage: import('./workers-types').DurableObjectStorage };
    protected env: Env;
    constructor(ctx: unknown, env: Env);
  }
}
