import { createServerFileRoute } from '@tanstack/react-start/server';

// The app's own route beside the payment routes: TanStack Start routes it before the splat.
export const ServerRoute = createServerFileRoute('/conformance/own-route').methods({
  GET: () => Response.json({ own: true }),
});
