#!/usr/bin/env node
// Reads a test run's output on stdin, passes it through, and closes with one line
// that adds up every vitest run in it: "tests: N passed, N failed, N skipped".
import { createInterface } from 'node:readline';

const totals = { passed: 0, failed: 0, skipped: 0 };
// Colour codes stand between the words when the runner writes to a terminal-like stream.
// eslint-disable-next-line no-control-regex
const ansi = /\x1b\[[0-9;]*m/g;

for await (const line of createInterface({ input: process.stdin })) {
  process.stdout.write(`${line}\n`);
  const summary = line.replace(ansi, '').match(/^\S*\s+Tests\s+(.*)\(\d+\)\s*$/);
  if (!summary) continue;
  for (const [, count, kind] of summary[1].matchAll(/(\d+) (passed|failed|skipped)/g)) totals[kind] += Number(count);
}
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
