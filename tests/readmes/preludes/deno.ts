// Prelude "deno": the Deno globals a Deno block calls, declared for tsc. Deno has them built in, and
// packages/deno-kv's README test checks the same blocks with deno check against Deno's own types.
import type { KvLike } from '@paymount/deno-kv';
declare const Deno: {
  openKv(path?: string): Promise<KvLike>;
  env: { get(name: string): string | undefined };
  serve(handler: (request: Request) => Response | Promise<Response>): unknown;
};
