#!/usr/bin/env node
// The newcomer's first start, timed: a fresh clone of this checkout's HEAD,
// `npm ci` (with an empty npm cache unless --warm-cache), then `npm start` until
// the shop prints its URL. For comparison, in the same clone and run, the path
// `npm start` replaced: a full `turbo run build` (every package, declarations
// included, nothing cached) before the shop starts.
//
//   node tools/first-start.mjs [--warm-cache]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const warmCache = process.argv.includes('--warm-cache');
const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'paymount-first-start-'));
const clone = join(work, 'paymount');
const cache = join(work, 'npm-cache');
const env = { ...process.env, CI: '', ...(warmCache ? {} : { npm_config_cache: cache }) };

function timed(label, command, args) {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: clone, env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${label} failed (exit ${result.status})`);
  return (performance.now() - started) / 1000;
}

/** Runs `npm start` (or the given script) until the shop prints its URL, then stops it. */
function untilUrl(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('npm', args, { cwd: clone, env: { ...env, PORT: '0' }, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    const early = (code) => reject(new Error(`npm ${args.join(' ')} exited (${code}) before printing the shop's URL:\n${output}`));
    child.on('exit', early);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (/is running\. Open http/.test(output)) {
        const seconds = (performance.now() - started) / 1000;
        child.off('exit', early);
        child.on('exit', () => resolve(seconds));
        process.kill(-child.pid, 'SIGTERM');
      }
    });
  });
}

try {
  spawnSync('git', ['clone', '-q', root, clone], { stdio: 'inherit' });
  const install = timed('npm ci', 'npm', ['ci', '--no-audit', '--no-fund']);
  const start = await untilUrl(['start']);
  // The replaced path, from the same clean state: no dist, no turbo cache.
  spawnSync('git', ['clean', '-fdxq', '-e', 'node_modules'], { cwd: clone });
  const fullBuild = timed('turbo run build', 'npx', ['turbo', 'run', 'build', '--force', '--output-logs=errors-only']);
  const shopOnly = await untilUrl(['run', 'start', '-w', '@paymount/example-express-shop']);
  const now = install + start;
  const before = install + fullBuild + shopOnly;
  const load = (await import('node:os')).loadavg()[0].toFixed(1);
  console.log(`npm ci (${warmCache ? 'warm' : 'empty'} npm cache): ${install.toFixed(1)} s`);
  console.log(`npm start to the shop's URL: ${start.toFixed(1)} s`);
  console.log(`first start now: ${now.toFixed(1)} s; with a full build first: ${before.toFixed(1)} s (build ${fullBuild.toFixed(1)} s, shop ${shopOnly.toFixed(1)} s); ratio ${(now / before).toFixed(2)}; load ${load}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
