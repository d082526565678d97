import { expect, it } from 'vitest';
import { apiReportProblems } from './api-report.mjs';

/**
 * How long the report may take: it compiles the package's declarations, about 15 s of CPU on the 2-core CI
 * machine, and over 60 s with three CI runs beside it (two loaded runs timed out so). A guard against a hang.
 */
const REPORT_LIMIT_MS = 300_000;

/** The test every published package runs: its built public API is the one checked in under api/. */
export function itMatchesApiReport(packageDir: string): void {
  it('the built public API matches the checked-in report in api/ (regenerate: npm run api:update)', () => {
    const problems = apiReportProblems(packageDir);
    expect(problems, problems.join('\n\n')).toEqual([]);
  }, REPORT_LIMIT_MS);
}
