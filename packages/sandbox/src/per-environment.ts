import type { Environment } from './credentials';

/**
 * Values keyed by an id of one environment (a transactionRequestId): a map per
 * environment, so that no `environment:id` string is built, hashed and kept
 * for every entry, which the garbage collector then marks for as long as the
 * entry lives.
 */
export class PerEnvironment<V> {
  private readonly maps: Record<Environment, Map<string, V>> = { test: new Map(), production: new Map() };

  get(environment: Environment, id: string): V | undefined {
    return this.maps[environment].get(id);
  }

  set(environment: Environment, id: string, value: V): void {
    this.maps[environment].set(id, value);
  }

  delete(environment: Environment, id: string): void {
    this.maps[environment].delete(id);
  }

  get size(): number {
    return this.maps.test.size + this.maps.production.size;
  }
}
