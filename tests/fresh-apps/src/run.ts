import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The app's own API token (`API_TOKEN`), which its auth middleware or hook asks for; the payment service never sends it. */
export const APP_API_TOKEN = 'shop-api-token';

/** What the embedded sandbox printed at start (`announce`): where it listens and the secret it signs with. */
export interface Announcement {
  sandboxUrl: string;
  dashboardUrl: string;
  webhookSecret: string;
  /** The `paymount-sandbox trigger ...` line, as printed. */
  triggerLine: string;
}

export interface RunningApp {
  origin: string;
  announcement: Announcement;
  /** Everything the app wrote so far, stdout and stderr together. */
  output(): string;
  /** Resolves once the app wrote a line matching `pattern`, with the match. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** `SIGTERM`, as the READMEs shut down; resolves with the exit code once the process ended. */
  stop(): Promise<number | null>;
}

/** Resolves what `what` finds, asking every 50 ms; throws `describe()` once `timeoutMs` passed without it. */
export async function waitFor<T>(what: () => T | undefined | Promise<T | undefined>, describe: () => string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await what();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(describe());
    await sleep(50);
  }
}

function announcementIn(text: string): Announcement | undefined {
  const sandboxUrl = /listens at (http:\/\/\S+)/.exec(text)?.[1];
  const dashboardUrl = /dashboard .*: (http:\/\/\S+)/.exec(text)?.[1];
  const webhookSecret = /webhook secret .*: (whsec_\w+)/.exec(text)?.[1];
  const triggerLine = /(npx paymount-sandbox trigger .*)/.exec(text)?.[1];
  if (!sandboxUrl || !dashboardUrl || !webhookSecret || !triggerLine) return undefined;
  return { sandboxUrl, dashboardUrl, webhookSecret, triggerLine };
}

async function answers(origin: string): Promise<boolean> {
  try {
    await fetch(origin, { signal: AbortSignal.timeout(1_000) });
    return true;
  } catch {
    return false;
  }
}

/** The shop's environment beside `env`: its API token and the orders it holds (`SHOP_ORDERS`). */
export function shopEnv(env: NodeJS.ProcessEnv, port: number, orders: Record<string, number>): NodeJS.ProcessEnv {
  return {
    ...env,
    PORT: String(port),
    API_TOKEN: APP_API_TOKEN,
    SHOP_ORDERS: Object.entries(orders).map(([id, cents]) => `${id}:${cents}`).join(','),
  };
}

/**
 * Runs `args` with node in `appDir` (the server listening at `origin`) and resolves once
 * `ready(output)` found what it waits for and the server answers HTTP; kills it if not.
 */
export async function startServer<T>(
  appDir: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  origin: string,
  ready: (output: string) => T | undefined,
  timeoutMs: number,
): Promise<Omit<RunningApp, 'announcement'> & { ready: T }> {
  const child: ChildProcess = spawn(process.execPath, args, { cwd: appDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  let exitCode: number | null | undefined;
  child.stdout?.on('data', (chunk: Buffer) => void (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => void (text += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => (exitCode = code as number | null));
  const dead = () => `the app exited (${exitCode}) before it was ready:\n${text}`;
  try {
    const found = () => {
      if (exitCode !== undefined) throw new Error(dead());
      return ready(text);
    };
    const readyValue = await waitFor(found, () => `the app was not ready within ${timeoutMs} ms:\n${text}`, timeoutMs);
    const deadline = Date.now() + timeoutMs;
    while (!(await answers(origin))) {
      if (exitCode !== undefined) throw new Error(dead());
      if (Date.now() > deadline) throw new Error(`${origin} did not answer within ${timeoutMs} ms:\n${text}`);
      await sleep(100);
    }
    return {
      origin,
      ready: readyValue,
      output: () => text,
      waitForOutput: (pattern, wait = 20_000) =>
        waitFor(() => pattern.exec(text) ?? undefined, () => `the app never wrote ${pattern}:\n${text}`, wait),
      async stop() {
        if (exitCode === undefined) child.kill('SIGTERM');
        await exited;
        return exitCode ?? null;
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

/**
 * Starts a compiled app with `node dist/<main>` in development (`NODE_ENV=development`, so the
 * quick start starts its sandbox), listening on `port`, its shop holding `orders`, its API token
 * `APP_API_TOKEN`. Resolves once the sandbox announced itself and the app answers HTTP.
 */
export async function startApp(appDir: string, main: string, port: number, orders: Record<string, number>, timeoutMs = 60_000): Promise<RunningApp> {
  const env = shopEnv({ ...process.env, NODE_ENV: 'development' }, port, orders);
  const { ready, ...app } = await startServer(appDir, [join(appDir, 'dist', main)], env, `http://127.0.0.1:${port}`, announcementIn, timeoutMs);
  return { ...app, announcement: ready };
}
