import { proveTemplate } from '../template-proof';

proveTemplate('express');
