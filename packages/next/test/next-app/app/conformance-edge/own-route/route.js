// The app's own route beside the edge payment routes: Next routes it before the catch-all.
export function GET() {
  return Response.json({ own: true });
}
