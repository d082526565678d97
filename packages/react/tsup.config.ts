import { packageBuild } from '../../tools/tsup.shared';

// ES modules for the browser, like @paymount/browser. 'use client' lets a React Server Components app (Next.js)
// render it on the client; rollup's tree shaking would drop that directive, and there is nothing here to shake.
export default packageBuild({ index: 'src/index.ts' }, { format: ['esm'], platform: 'browser', target: 'es2020', treeshake: false, banner: { js: "'use client';" } });
