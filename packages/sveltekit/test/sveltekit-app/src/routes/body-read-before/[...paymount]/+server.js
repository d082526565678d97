import { paymentHandlers } from '@paymount/sveltekit';
import { paymentOptions } from '$lib/server/payments';

const handlers = paymentHandlers(paymentOptions);

// What a `handle` hook reading `event.request` does to the routes: the body is gone before they run.
export async function POST(event) {
	await event.request.text();
	return handlers.POST(event);
}
