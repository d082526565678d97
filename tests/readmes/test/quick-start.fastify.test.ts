import { describeQuickStart, importedQuickStart } from './support/quick-start';

describeQuickStart('fastify', importedQuickStart('fastify'));
