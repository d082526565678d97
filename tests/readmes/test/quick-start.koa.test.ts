import { describeQuickStart, importedQuickStart } from './support/quick-start';

describeQuickStart('koa', importedQuickStart('koa', 'Refunds, lookups and cancelled checkouts'));
