import { proveTemplate } from '../template-proof';

proveTemplate('astro');
