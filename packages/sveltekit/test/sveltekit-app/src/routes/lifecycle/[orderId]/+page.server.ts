import { sandbox } from '$lib/server/payments';
import type { PageServerLoad } from './$types';

// The guide's wallet (the quick start's sandbox), for the order in the path; `?next=` names the order the page links to.
export const load: PageServerLoad = ({ params, url }) => ({
	orderId: params.orderId,
	wallet: sandbox ? { sandbox: sandbox.url } : { environment: 'PRODUCTION' as const },
	next: url.searchParams.get('next') ?? ''
});
