import { startServer, type RunningServer } from '../../../../tools/child-processes';
import { freePort } from '../../../../tools/free-port';
import { appDir } from './test-app';

export interface NodeBuild extends RunningServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
}

/**
 * The test app's build served as adapter-node serves it in production, `node build`,
 * on 127.0.0.1 with `env`. Ready once the app's own route answers.
 */
export async function nodeBuild(env: Record<string, string>): Promise<NodeBuild> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startServer(process.execPath, ['build'], {
    cwd: appDir,
    // ORIGIN: adapter-node takes a request's URL to be https:// unless told where it serves.
    env: { ...env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), ORIGIN: origin },
    readyUrl: `${origin}/conformance/own-route`,
    timeoutMs: 60_000,
  });
  return { ...server, origin };
}
