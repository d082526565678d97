// @ts-check
/* global Deno */
// `deno run --allow-net=127.0.0.1 flows/conformance-deno.mjs '<description JSON>'`: the conformance suite's app served by Deno.serve until killed.
import { conformanceApp, printListening } from './conformance-app.mjs';

const description = JSON.parse(Deno.args[0] ?? '{}');
const app = conformanceApp(description);
Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => printListening(port, description.mountPath) }, app.fetch);
