import { paymentHandlers } from '@paymount/sveltekit';
import { paymentOptions } from '$lib/server/payments';

// resolveOrder gets SvelteKit's RequestEvent as ctx.context: it knows this order only for the shopper whose
// cookie says so, on this route (the event's route id, cookies and params are the RequestEvent's own).
export const { GET, POST, HEAD, fallback, trailingSlash } = paymentHandlers(() => {
	const options = paymentOptions();
	return {
		...options,
		resolveOrder: (orderId, ctx) =>
			ctx.context.cookies.get('shopper') === 'alice' &&
			ctx.context.route.id === '/context-check/[...paymount]' &&
			ctx.context.params.paymount === 'checkout'
				? options.resolveOrder(orderId, ctx)
				: null
	};
});
