// The app's own route beside the payment routes: React Router ranks it above the splat.
export function loader() {
  return Response.json({ own: true });
}
