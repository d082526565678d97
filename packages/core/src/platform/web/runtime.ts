interface DenoGlobal {
  env?: { get(name: string): string | undefined };
  permissions?: { querySync?(descriptor: { name: 'env'; variable: string }): { state: string } };
}

interface RuntimeGlobals {
  EdgeRuntime?: unknown;
  Bun?: unknown;
  Deno?: DenoGlobal;
  Netlify?: unknown;
  navigator?: { userAgent?: unknown };
  process?: { versions?: { node?: unknown } };
}

/** Set by Deno Deploy in every deployment (and by no local `deno run` unless someone sets it). */
const DENO_DEPLOYMENT_ID = 'DENO_DEPLOYMENT_ID';

/**
 * The runtimes where a request may be served by an isolate that has not seen
 * the previous one: memory kept by one request protects nothing for the next.
 * Bun, Deno and Node serve every request from one process, except Deno on an
 * isolate host (Deno Deploy, Netlify's and Supabase's edge functions); an
 * unknown runtime is counted among the isolated ones, where the warning it
 * gets is the safe side.
 */
export function isolatedMemory(): string | undefined {
  const runtime = globalThis as RuntimeGlobals;
  if (typeof runtime.EdgeRuntime === 'string') return 'the Next.js edge runtime';
  if (runtime.navigator?.userAgent === 'Cloudflare-Workers') return 'Cloudflare Workers (workerd)';
  if (runtime.Deno !== undefined) return denoIsolateHost(runtime, runtime.Deno);
  if (runtime.Bun !== undefined || typeof runtime.process?.versions?.node === 'string') return undefined;
  return 'this runtime';
}

/**
 * Netlify's edge functions expose a `Netlify` global, Supabase's an
 * `EdgeRuntime` object (`EdgeRuntime.waitUntil`; Next.js's is a string).
 */
function denoIsolateHost(runtime: RuntimeGlobals, deno: DenoGlobal): string | undefined {
  if (typeof runtime.Netlify === 'object' && runtime.Netlify !== null) return 'Netlify Edge Functions';
  if (typeof runtime.EdgeRuntime === 'object' && runtime.EdgeRuntime !== null) return 'Supabase Edge Functions';
  return onDenoDeploy(deno) ? 'Deno Deploy' : undefined;
}

/**
 * Deno Deploy grants env access; elsewhere `Deno.env.get` without --allow-env
 * throws NotCapable (or prompts on a terminal), so the variable is read only
 * where the permission is already granted. A `deno run` that may not read it
 * is a local process.
 */
function onDenoDeploy(deno: DenoGlobal): boolean {
  try {
    const state = deno.permissions?.querySync?.({ name: 'env', variable: DENO_DEPLOYMENT_ID }).state;
    if (state !== undefined && state !== 'granted') return false;
    return deno.env?.get(DENO_DEPLOYMENT_ID) !== undefined;
  } catch {
    return false;
  }
}
