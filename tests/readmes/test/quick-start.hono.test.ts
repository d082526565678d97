import { describeQuickStart, importedQuickStart } from './support/quick-start';

describeQuickStart('hono', importedQuickStart('hono', 'Refunds and lookups'));
