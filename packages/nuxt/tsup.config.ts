import { packageBuild } from '../../tools/tsup.shared';

export default packageBuild();
