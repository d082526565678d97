import { env } from '$env/dynamic/private';
import { paymentHandlers } from '@paymount/sveltekit';
import { remoteRouteOptions } from '../../../../conformance-remote-app.mjs';

// The conformance suite (test/conformance.test.ts) serves this app with `node build`, apart from the test process:
// its options arrive as a description in PAYMOUNT_CONFORMANCE, their functions as calls back to the suite
// (tools/conformance/remote-app.mjs).
let origin = '';
/** @type {ReturnType<typeof remoteRouteOptions> | undefined} */
let remote;

const handlers = paymentHandlers(() => {
	const description = env.PAYMOUNT_CONFORMANCE;
	if (!description) throw new Error('no PAYMOUNT_CONFORMANCE: this route serves only the conformance test');
	remote = remoteRouteOptions(JSON.parse(description), () => origin);
	return remote.options;
});

/** Answers once what the routes logged has reached the suite, as the suite's other apps do. */
const settled = (handler) => async (event) => {
	origin = event.url.origin;
	const response = await handler(event);
	await remote?.settled();
	return response;
};

export const GET = settled(handlers.GET);
export const POST = settled(handlers.POST);
export const HEAD = settled(handlers.HEAD);
export const fallback = settled(handlers.fallback);
export const { trailingSlash } = handlers;
