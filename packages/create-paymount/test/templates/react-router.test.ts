import { proveTemplate } from '../template-proof';

proveTemplate('react-router');
