// As the default template (react-router-templates, React Router 7.16) writes it: server rendering and its future flags.
export default {
  ssr: true,
  future: {
    v8_middleware: true,
    v8_passThroughRequests: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_viteEnvironmentApi: true,
  },
};
