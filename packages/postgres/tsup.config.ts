import { packageBuild } from '../../tools/tsup.shared';

// shims: import.meta.url in the CommonJS build, where migrate() finds the SQL files it ships.
export default packageBuild(undefined, { shims: true });
