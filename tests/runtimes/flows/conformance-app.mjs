// @ts-check
// The conformance suite's app (tools/conformance/remote-app.mjs) on this
// runtime's @paymount/core, imported by its package name as a merchant's app
// imports it, so the runtime's export conditions pick the build.
import * as core from '@paymount/core';
import { remoteConformanceApp } from '../../../tools/conformance/remote-app.mjs';

/** Marks the line saying where the app listens, among whatever else the process logs. */
export const LISTENING_MARKER = 'PAYMOUNT_CONFORMANCE_LISTENING ';

/** @param {import('../../../tools/conformance/remote').RemoteRouteDescription} description */
export function conformanceApp(description) {
  return remoteConformanceApp(core, description);
}

/**
 * @param {number} port
 * @param {string} mountPath
 */
export function printListening(port, mountPath) {
  // eslint-disable-next-line no-console -- the address goes to the test over stdout
  console.log(`${LISTENING_MARKER}http://127.0.0.1:${port}${mountPath}`);
}
