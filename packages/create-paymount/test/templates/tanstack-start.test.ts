import { proveTemplate } from '../template-proof';

proveTemplate('tanstack-start');
