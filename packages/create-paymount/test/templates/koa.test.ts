import { proveTemplate } from '../template-proof';

proveTemplate('koa');
