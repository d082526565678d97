import { proveTemplate } from '../template-proof';

proveTemplate('elysia');
