import { packageTests } from '../../tools/vitest.shared';

// Most tests start a shop process on PGlite, which opens its data folder in seconds and, on a loaded
// machine, in tens of seconds (36-55 s seen with both cores busy): the limits leave it that.
export default packageTests({ testTimeout: 180_000, hookTimeout: 180_000 });
