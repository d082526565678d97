import { packageBuild } from '../../tools/tsup.shared';

// A bin, run by `npm create paymount` on Node: one ES module, no declarations (nothing imports it).
export default packageBuild({ cli: 'src/cli.ts' }, { format: ['esm'], dts: false });
