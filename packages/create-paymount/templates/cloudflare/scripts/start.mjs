// @ts-check
// `npm start`: the shop offline, the sandbox as its payment service. Stopping npm (Ctrl-C) stops both.
import { startDev } from './dev.mjs';

// Whoever reads the output may be gone first (npm stopped): nothing left to tell, and no reason to crash.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

const starting = startDev({
  port: Number(process.env['PORT'] || 8787),
  onServing({ url, sandbox }) {
    console.log(`Shop:      ${url}   (once wrangler says "Ready")`);
    console.log(`Dashboard: ${sandbox.dashboardUrl}   (the embedded sandbox: payments, webhooks, refunds)`);
    console.log(`Refunds:   ${url}/login (the stub's staff password on the sandbox: "staff")`);
    console.log('Orders:    D1, local (.wrangler/state)');
  },
});

/** @type {Promise<void> | undefined} */
let stopping;
const stop = () => {
  stopping ??= starting.then((running) => running.close()).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
// npm's shell does not pass SIGTERM on: once npm has gone (this process handed to another parent), stop too.
const npm = process.ppid;
setInterval(() => {
  if (process.ppid !== npm) stop();
}, 1_000).unref();

try {
  await starting;
} catch (error) {
  // startDev stopped what it had started; its error says why, with wrangler's words above it.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
