// @ts-check
// `npm start`: the shop offline, the sandbox as its payment service. Stopping it (Ctrl-C) stops both.
import { startDev } from './dev.mjs';

const port = Number(process.env['PORT'] || 8787);
const running = await startDev({ port });
console.log(`Shop:      ${running.url}`);
console.log(`Dashboard: ${running.sandbox.dashboardUrl}   (the embedded sandbox: payments, webhooks, refunds)`);
console.log(`Refunds:   ${running.url}/login (the stub's staff password on the sandbox: "staff")`);
console.log('Orders:    D1, local (.wrangler/state)');
const stop = () => {
  running.close().then(() => process.exit(0), () => process.exit(1));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
