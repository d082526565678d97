// @ts-check
// The conformance suite's app as a Worker: built on the first request from the
// description in its CONFORMANCE binding, then kept by the isolate, as a Worker
// keeps module state between the requests one isolate serves. The APP binding
// picks how the routes are mounted.
import { conformanceApp } from './conformance-app.mjs';
import { honoConformanceApp } from './conformance-hono-app.mjs';

/** The apps the suite runs in a Worker, by the name the test passes as APP. */
const APPS = { 'fetch-handler': conformanceApp, hono: honoConformanceApp };

/** @type {ReturnType<typeof conformanceApp> | undefined} */
let app;

export default {
  /**
   * @param {Request} request
   * @param {{ CONFORMANCE: import('../../../tools/conformance/remote').RemoteRouteDescription, APP: keyof typeof APPS }} env
   */
  fetch(request, env) {
    app ??= APPS[env.APP](env.CONFORMANCE);
    return app.fetch(request);
  },
};
