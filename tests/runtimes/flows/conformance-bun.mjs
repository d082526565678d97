// @ts-check
/* global Bun */
// `bun flows/conformance-bun.mjs '<description JSON>'`: the conformance suite's app served by Bun.serve until killed.
import { conformanceApp, printListening } from './conformance-app.mjs';

const description = JSON.parse(process.argv[2] ?? '{}');
const app = conformanceApp(description);
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: app.fetch });
printListening(server.port, description.mountPath);
