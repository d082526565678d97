import { proveInstall } from '../template-proof';

proveInstall({ framework: 'express', manager: 'bun' });
