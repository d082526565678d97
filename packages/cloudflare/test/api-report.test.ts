import { expect, it } from 'vitest';
import { apiReportProblems } from '../../../tools/api-report.mjs';

it('the built public API matches the checked-in report in api/ (regenerate: npm run api:update)', () => {
  const problems = apiReportProblems(`${import.meta.dirname}/..`);
  expect(problems, problems.join('\n\n')).toEqual([]);
}, 60_000);
