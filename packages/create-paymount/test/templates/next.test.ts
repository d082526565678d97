import { proveTemplate } from '../template-proof';

proveTemplate('next');
