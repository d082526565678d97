// @ts-check
/* global Bun */
// `bun flows/bun.mjs '<config JSON>'`: the flows on Bun, served by Bun.serve.
import { runFlows } from './flows.mjs';
import { printResult } from './report.mjs';

const result = await runFlows(JSON.parse(process.argv[2] ?? '{}'), async (handler) => {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler });
  return { url: `http://127.0.0.1:${server.port}`, close: () => server.stop(true) };
});
printResult({ runtime: `bun ${Bun.version}`, ...result });
// Whatever a failed step left open (a timer, a socket) must not keep the run alive.
process.exit(0);
