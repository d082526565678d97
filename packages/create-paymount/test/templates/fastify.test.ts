import { proveTemplate } from '../template-proof';

proveTemplate('fastify');
