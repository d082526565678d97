import { proveTemplate } from '../template-proof';

proveTemplate('hono-bun');
