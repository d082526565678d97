import { packageBuild } from '../../tools/tsup.shared';

// Browsers only, ES modules only, minified: every shop page loads it, and its budget is 3 KB gzipped (test/size.test.ts).
export default packageBuild({ index: 'src/index.ts' }, { format: ['esm'], platform: 'browser', target: 'es2020', minify: true });
