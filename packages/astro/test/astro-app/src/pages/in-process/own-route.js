// The app's own route beside the payment endpoints: Astro routes a static segment before the rest parameter.
export const prerender = false;

export function GET() {
  return Response.json({ own: true });
}
