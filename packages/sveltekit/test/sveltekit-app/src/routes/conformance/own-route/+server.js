// The app's own route beside the payment routes: SvelteKit routes a static segment before the rest parameter.
export function GET() {
	return Response.json({ own: true });
}
