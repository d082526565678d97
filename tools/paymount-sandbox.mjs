#!/usr/bin/env node
// `npx paymount-sandbox ...` in a clone of this repository, as the sandbox's start-up
// announcement prints it. npm links a package's bin only where the package is installed as a
// dependency, so in the clone, where @paymount/sandbox is a workspace, npx finds this launcher
// instead: the root package.json names it as its own bin. It builds the sandbox once when a
// fresh clone has no dist yet, then runs its CLI with the same arguments.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const cli = new URL('packages/sandbox/dist/cli.js', root);

if (!existsSync(cli)) {
  process.stderr.write('paymount-sandbox: building @paymount/sandbox first (a fresh clone)…\n');
  // Turbo's own lines go to stderr, so `--json` output on stdout stays JSON.
  const built = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only', '--filter=@paymount/sandbox...'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (built.status !== 0) {
    process.stderr.write(`paymount-sandbox: the build of @paymount/sandbox failed (exit ${built.status ?? built.signal}); run \`npx turbo run build --filter=@paymount/sandbox...\` to see why\n`);
    process.exit(1);
  }
}

await import(cli.href);
