import { packageBuild } from '../../tools/tsup.shared';

// shims: the CJS build gets import.meta.url, which telemetry/load-api.ts resolves the optional peer from.
export default packageBuild(undefined, { shims: true });
