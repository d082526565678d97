// The Deno APIs the Deno-side tests and the merchant app call, for tsc on Node (Deno ignores this file).
import type { KvKey, KvLike } from '../../src/kv';

declare global {
  namespace Deno {
    interface Kv extends KvLike {
      set(key: KvKey, value: unknown): Promise<unknown>;
      close(): void;
    }
    class KvU64 {
      constructor(value: bigint);
      readonly value: bigint;
    }
    function openKv(path?: string): Promise<Kv>;
    function makeTempDir(): Promise<string>;
    function remove(path: string, options?: { recursive?: boolean }): Promise<void>;
    function serve(
      options: { hostname: string; port: number; onListen?: (address: { port: number }) => void },
      handler: (request: Request) => Response | Promise<Response>,
    ): { shutdown(): Promise<void> };
    const args: string[];
  }
}
