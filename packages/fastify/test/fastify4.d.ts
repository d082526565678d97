// The `fastify4` alias installs Fastify 4 next to Fastify 5 for the tests; its API is typed as Fastify's.
declare module 'fastify4' {
  import fastify from 'fastify';
  export default fastify;
}
