import { fail, redirect } from '@sveltejs/kit';
import { shop } from '$lib/server/shop.js';
import type { Actions, PageServerLoad } from './$types';

/** Only a path on this shop: a `next` pointing elsewhere would make the login an open redirect. */
function localPath(next: unknown): string {
	return typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : '/';
}

export const load: PageServerLoad = ({ url }) => ({ next: localPath(url.searchParams.get('next')) });

export const actions = {
	default: async ({ request, cookies }) => {
		const form = await request.formData();
		const next = localPath(form.get('next'));
		const session = shop().staff.signIn(form.get('password'));
		if (!session) return fail(401, { refused: true });
		// The stub's cookie, `staff=<session>; Path=/; HttpOnly; SameSite=Strict[; Secure]`, set through SvelteKit's cookies.
		const [name = '', value = ''] = session.split(';', 1)[0]!.split('=');
		cookies.set(name, value, { path: '/', httpOnly: true, sameSite: 'strict', secure: session.includes('; Secure') });
		redirect(303, next);
	}
} satisfies Actions;
