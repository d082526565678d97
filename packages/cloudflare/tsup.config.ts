import { packageBuild } from '../../tools/tsup.shared';

// `cloudflare:workers` is the Worker runtime's own module: the merchant's bundler (wrangler) leaves it to workerd.
export default packageBuild({ index: 'src/index.ts' }, { external: ['cloudflare:workers'] });
