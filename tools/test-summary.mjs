#!/usr/bin/env node
// Reads a test run's output on stdin, passes it through, and closes with one line
// that adds up every vitest run in it: "tests: N passed, N failed, N skipped".
// Turbo runs every package's tasks even when one fails (--continue); the tasks that
// failed, lint and typecheck included, are named on the line before it.
import { createInterface } from 'node:readline';

const totals = { passed: 0, failed: 0, skipped: 0 };
let failedTasks = [];
// Colour codes stand between the words when the runner writes to a terminal-like stream.
// eslint-disable-next-line no-control-regex
const ansi = /\x1b\[[0-9;]*m/g;

for await (const line of createInterface({ input: process.stdin })) {
  process.stdout.write(`${line}\n`);
  const plain = line.replace(ansi, '');
  const failed = plain.match(/^\s*Failed:\s+(.+)$/);
  if (failed) failedTasks = failed[1].split(',').map((task) => task.trim());
  const summary = plain.match(/^\S*\s+Tests\s+(.*)\(\d+\)\s*$/);
  if (!summary) continue;
  for (const [, count, kind] of summary[1].matchAll(/(\d+) (passed|failed|skipped)/g)) totals[kind] += Number(count);
}
if (failedTasks.length > 0) console.log(`failed tasks: ${failedTasks.join(', ')}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
