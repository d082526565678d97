import { proveTemplate } from '../template-proof';

proveTemplate('nestjs');
