import { packageBuild } from '../../tools/tsup.shared';

// `components`: the Vue side, for the app's pages; the server routes' entry never loads Vue or the browser module.
export default packageBuild({ index: 'src/index.ts', components: 'src/components.ts' });
