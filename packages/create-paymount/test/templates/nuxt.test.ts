import { proveTemplate } from '../template-proof';

proveTemplate('nuxt');
