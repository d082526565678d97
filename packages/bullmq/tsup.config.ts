import { packageBuild } from '../../tools/tsup.shared';

export default packageBuild({ index: 'src/index.ts', cli: 'src/cli.ts' });
