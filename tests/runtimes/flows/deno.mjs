// @ts-check
/* global Deno */
// `deno run --allow-net=127.0.0.1 flows/deno.mjs '<config JSON>'`: the flows on Deno, served by Deno.serve.
import { runFlows } from './flows.mjs';
import { printResult } from './report.mjs';

const result = await runFlows(JSON.parse(Deno.args[0] ?? '{}'), async (handler) => {
  /** @type {(port: number) => void} */
  let listening = () => {};
  const port = new Promise((resolve) => (listening = resolve));
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: (addr) => listening(addr.port) }, handler);
  return { url: `http://127.0.0.1:${await port}`, close: () => server.shutdown() };
});
printResult({ runtime: `deno ${Deno.version.deno}`, ...result });
// Whatever a failed step left open (a timer, a socket) must not keep the run alive.
Deno.exit(0);
