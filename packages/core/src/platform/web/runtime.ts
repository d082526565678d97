interface RuntimeGlobals {
  EdgeRuntime?: unknown;
  Bun?: unknown;
  Deno?: unknown;
  navigator?: { userAgent?: unknown };
  process?: { versions?: { node?: unknown } };
}

/**
 * The runtimes where a request may be served by an isolate that has not seen
 * the previous one: memory kept by one request protects nothing for the next.
 * Bun, Deno and Node serve every request from one process; an unknown runtime
 * is counted among the isolated ones, where the warning it gets is the safe side.
 */
export function isolatedMemory(): string | undefined {
  const runtime = globalThis as RuntimeGlobals;
  if (typeof runtime.EdgeRuntime === 'string') return 'the Next.js edge runtime';
  if (runtime.navigator?.userAgent === 'Cloudflare-Workers') return 'Cloudflare Workers (workerd)';
  if (runtime.Bun !== undefined || runtime.Deno !== undefined || typeof runtime.process?.versions?.node === 'string') return undefined;
  return 'this runtime';
}
