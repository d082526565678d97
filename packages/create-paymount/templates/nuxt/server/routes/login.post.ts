/** Only a path on this shop: a `next` pointing elsewhere would make the login an open redirect. */
function localPath(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : '/';
}

/** The stub staff login's form (app/pages/login.vue): its session cookie, then back where the staff member was. */
export default defineEventHandler(async (event) => {
  const form = await readBody<{ password?: unknown; next?: unknown }>(event);
  const next = localPath(form.next);
  const session = (await useShop()).staff.signIn(form.password);
  if (!session) return sendRedirect(event, `/login?refused&next=${encodeURIComponent(next)}`, 303);
  appendResponseHeader(event, 'set-cookie', session);
  return sendRedirect(event, next, 303);
});
