// @ts-check
// The conformance suite's app as a Worker: built on the first request from the
// description in its CONFORMANCE binding, then kept by the isolate, as a Worker
// keeps module state between the requests one isolate serves.
import { conformanceApp } from './conformance-app.mjs';

/** @type {ReturnType<typeof conformanceApp> | undefined} */
let app;

export default {
  /**
   * @param {Request} request
   * @param {{ CONFORMANCE: import('../../../tools/conformance/remote').RemoteRouteDescription }} env
   */
  fetch(request, env) {
    app ??= conformanceApp(env.CONFORMANCE);
    return app.fetch(request);
  },
};
