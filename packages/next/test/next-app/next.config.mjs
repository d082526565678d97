import { fileURLToPath } from 'node:url';

// The repository root: the workspace's node_modules (and @paymount/* linked there) sit above this app.
const root = fileURLToPath(new URL('../../..', import.meta.url));

export default {
  turbopack: { root },
  outputFileTracingRoot: root,
  // The tests build once per run, from scratch: a build cache would cost seconds and never be read.
  experimental: { turbopackFileSystemCacheForBuild: false },
};
