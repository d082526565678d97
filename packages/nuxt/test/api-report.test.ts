import { itMatchesApiReport } from '../../../tools/api-report-test';

itMatchesApiReport(`${import.meta.dirname}/..`);
