import { shop } from '@/shop';

/** Only a path on this shop: a `next` pointing elsewhere would make the login an open redirect. */
function localPath(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : '/';
}

/** The sign-in form: a session cookie for the staff password, then where the form came from. */
export async function POST(request: Request) {
  const form = await request.formData();
  const next = localPath(form.get('next'));
  const cookie = (await shop()).staff.signIn(form.get('password'));
  if (!cookie) return new Response(null, { status: 303, headers: { location: `/login?refused&next=${encodeURIComponent(next)}` } });
  return new Response(null, { status: 303, headers: { location: next, 'set-cookie': cookie } });
}
