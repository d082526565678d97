import { proveTemplate } from '../template-proof';

proveTemplate('sveltekit');
