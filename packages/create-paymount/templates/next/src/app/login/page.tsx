import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Staff sign-in' };

/** A stub: one password from STAFF_PASSWORD. Put your own login in its place (src/staff.ts). */
export default async function LoginPage({ searchParams }: PageProps<'/login'>) {
  const { next, refused } = await searchParams;
  return (
    <>
      <h1>Staff sign-in</h1>
      {refused !== undefined && <p role="alert">That password is not the staff password.</p>}
      <form method="post" action="/login/session">
        <input type="hidden" name="next" value={typeof next === 'string' ? next : '/'} />
        <label>
          Password <input type="password" name="password" autoComplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </form>
      <p>A stub: one password from STAFF_PASSWORD. Put your own login in its place (src/staff.ts).</p>
    </>
  );
}
