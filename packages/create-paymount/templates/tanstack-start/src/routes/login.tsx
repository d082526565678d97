import { createFileRoute } from '@tanstack/react-router';
import { createServerFileRoute } from '@tanstack/react-start/server';
import { shop } from '../shop.js';

/** Only a path on this shop: a `next` pointing elsewhere would make the login an open redirect. */
function localPath(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : '/';
}

/** The sign-in form: a session cookie for the staff password, then where the form came from. */
export const ServerRoute = createServerFileRoute('/login').methods({
  POST: async ({ request }) => {
    const form = await request.formData();
    const next = localPath(form.get('next'));
    const cookie = (await shop()).staff.signIn(form.get('password'));
    if (!cookie) return new Response(null, { status: 303, headers: { location: `/login?refused=true&next=${encodeURIComponent(next)}` } });
    return new Response(null, { status: 303, headers: { location: next, 'set-cookie': cookie } });
  },
});

/** A stub: one password from STAFF_PASSWORD. Put your own login in its place (src/staff.ts). */
export const Route = createFileRoute('/login')({
  // Only what the URL has: a page whose search the validation changes is redirected to the changed URL.
  validateSearch: (search: Record<string, unknown>): { next?: string; refused?: true } => ({
    ...(search['next'] === undefined ? {} : { next: localPath(search['next']) }),
    ...(search['refused'] === true ? { refused: true } : {}),
  }),
  head: () => ({ meta: [{ title: 'Staff sign-in · Paymount shop' }] }),
  component: Login,
});

function Login() {
  const { next, refused } = Route.useSearch();
  return (
    <>
      <h1>Staff sign-in</h1>
      {refused && <p role="alert">That password is not the staff password.</p>}
      <form method="post" action="/login">
        <input type="hidden" name="next" value={next ?? '/'} />
        <label>
          Password <input type="password" name="password" autoComplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </form>
      <p>A stub: one password from STAFF_PASSWORD. Put your own login in its place (src/staff.ts).</p>
    </>
  );
}
