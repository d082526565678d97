// Prelude "node-request": a request on a node:http server and the bytes of its body.
import type { IncomingMessage } from 'node:http';
declare const req: IncomingMessage;
declare const rawBody: Buffer;
