import { describeQuickStart, importedQuickStart } from './support/quick-start';

describeQuickStart('express', importedQuickStart('express', 'Refunds, lookups and cancelled checkouts'));
