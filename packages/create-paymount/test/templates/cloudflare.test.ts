import { proveTemplate } from '../template-proof';

proveTemplate('cloudflare');
