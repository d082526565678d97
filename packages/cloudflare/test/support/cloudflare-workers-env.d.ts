// The bindings of the Worker a test runs in, which the package's own declaration of the runtime's module leaves out:
// only the contract tests, run inside workerd by @cloudflare/vitest-pool-workers, read them.
declare module 'cloudflare:workers' {
  export const env: unknown;
}
