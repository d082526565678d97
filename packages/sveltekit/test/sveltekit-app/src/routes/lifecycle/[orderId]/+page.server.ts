import { walletSource } from '$lib/server/payments';
import type { PageServerLoad } from './$types';

// The README's wallet, for the order in the path; `?next=` names the order the page links to.
export const load: PageServerLoad = ({ params, url }) => ({ orderId: params.orderId, wallet: walletSource(), next: url.searchParams.get('next') ?? '' });
