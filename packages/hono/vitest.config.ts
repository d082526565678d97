import { packageTests } from '../../tools/vitest.shared';

export default packageTests();
