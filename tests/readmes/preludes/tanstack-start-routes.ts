// Prelude "tanstack-start-routes": what the route tree `vite build` generates (src/routeTree.gen.ts) declares of the
// TanStack Start README's splat route; in an app, the generated file says it.
import type { createServerRootRoute } from '@tanstack/react-start/server';
declare module '@tanstack/react-start/server' {
  interface ServerFileRoutesByPath {
    '/payments/$': {
      id: '/payments/$';
      path: '/payments/$';
      fullPath: '/payments/$';
      preLoaderRoute: unknown;
      parentRoute: ReturnType<typeof createServerRootRoute>;
    };
  }
}
