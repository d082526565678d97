import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { ConformanceApp, RemoteRouteDescription } from '../../../tools/conformance';
import { LISTENING_MARKER } from '../flows/conformance-app.mjs';
import { RUNTIMES_DIR } from './processes';

const START_TIMEOUT_MS = 30_000;

/**
 * Starts the conformance app (`flows/conformance-<runtime>.mjs`) as a process
 * of `command` with the description as its last argument, and resolves where
 * it serves the routes once it says so. Its output is kept: a start that
 * fails quotes it, and the app's own stderr is passed on (the runtime's words
 * for an error the routes did not catch).
 */
export async function startConformanceProcess(command: string, args: readonly string[], description: RemoteRouteDescription): Promise<ConformanceApp> {
  const child = spawn(command, [...args, JSON.stringify(description)], { cwd: RUNTIMES_DIR, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  const exited = once(child, 'exit');
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const line = output.split('\n').find((l) => l.startsWith(LISTENING_MARKER));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve(line.slice(LISTENING_MARKER.length).trim());
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      process.stderr.write(chunk);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`exited (${child.exitCode ?? child.signalCode}) before listening:\n${output}`));
    });
  });
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    return { url: await url, close };
  } catch (error) {
    await close();
    throw error;
  }
}
