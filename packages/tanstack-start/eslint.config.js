// @ts-check
import rootConfig from '../../eslint.config.js';

export default [
  ...rootConfig,
  // What `vite build` makes of the conformance app: its route tree and its server (the root config's ignores are relative to the root).
  { ignores: ['test/start-app/.output/**', 'test/start-app/.nitro/**', 'test/start-app/.tanstack/**', 'test/start-app/src/routeTree.gen.ts'] },
];
