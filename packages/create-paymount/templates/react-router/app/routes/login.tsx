import { data, Form, redirect } from 'react-router';
import { shop } from '../shop.server';
import type { Route } from './+types/login';

/** Only a path on this shop: a `next` pointing elsewhere would make the login an open redirect. */
function localPath(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : '/';
}

export function meta(): Route.MetaDescriptors {
  return [{ title: 'Staff sign-in · Paymount shop' }];
}

export function loader({ request }: Route.LoaderArgs) {
  return { next: localPath(new URL(request.url).searchParams.get('next')) };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const session = (await shop()).services.staff.signIn(form.get('password'));
  if (!session) return data({ refused: true }, 401);
  // The stub's cookie: `staff=<session>; Path=/; HttpOnly; SameSite=Strict[; Secure]`.
  return redirect(localPath(form.get('next')), { status: 303, headers: { 'set-cookie': session } });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <h1>Staff sign-in</h1>
      {actionData?.refused && <p role="alert">That password is not the staff password.</p>}
      <Form method="post">
        <input type="hidden" name="next" value={loaderData.next} />
        <label>
          Password <input type="password" name="password" autoComplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </Form>
      <p>A stub: one password from STAFF_PASSWORD. Put your own login in its place (src/staff.ts).</p>
    </>
  );
}
