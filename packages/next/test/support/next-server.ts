import { startServer } from '../../../../tools/child-processes';
import { freePort } from '../../../../tests/readmes/test/support/quick-start';
import { appDir, appEnv, nextBin, packageDir } from './test-app';

export interface NextStart {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** What the server wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/** `next start` serving the test app's build on 127.0.0.1, with `env` (the payment settings, the sandbox switch) and nothing else of the tests'. */
export async function nextStart(env: Record<string, string>): Promise<NextStart> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startServer(process.execPath, [nextBin, 'start', appDir, '-H', '127.0.0.1', '-p', String(port)], {
    cwd: packageDir,
    env: appEnv({ ...env, PUBLIC_URL: origin }),
    replaceEnv: true,
    // Next.js answers once instrumentation's register() has run: the sandbox, when switched on, is up by then.
    readyUrl: `${origin}/conformance/own-route`,
    requireOk: true,
    timeoutMs: 60_000,
  });
  return { origin, output: server.output, stop: server.close };
}
