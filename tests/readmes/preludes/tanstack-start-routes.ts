// Prelude "tanstack-start-routes": what the route tree `vite build` generates (src/routeTree.gen.ts) declares of the
// TanStack Start README's splat route and of the guide's order page; in an app, the generated file says it.
import type { createRootRoute } from '@tanstack/react-router';
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
declare module '@tanstack/react-router' {
  interface FileRoutesByPath {
    '/orders/$orderId/pay': {
      id: '/orders/$orderId/pay';
      path: '/orders/$orderId/pay';
      fullPath: '/orders/$orderId/pay';
      preLoaderRoute: unknown;
      parentRoute: ReturnType<typeof createRootRoute>;
    };
  }
}
