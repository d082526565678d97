import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { assertPackageExports, assertPackageLints } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() =>
    assertPackageExports('@paymount/postgres', import.meta.dirname, [
      'createPostgresStores',
      'migrate',
      'fromPg',
      'fromPostgresJs',
      'fromPGlite',
      'inTransaction',
      'PostgresIdempotencyStore',
      'PostgresOrderAttemptStore',
      'ClaimLostError',
      'DEFAULT_TABLE_PREFIX',
    ]),
  ).not.toThrow();
});

// Two Node processes each open PGlite, which takes tens of seconds with both cores busy (60 s was passed in a loaded CI run).
it('the packed package ships the SQL migrations that migrate() applies, from both module systems', () => {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: `${import.meta.dirname}/..`, encoding: 'utf8' })) as [
    { files: Array<{ path: string }> },
  ];
  expect(packed[0].files.map((file) => file.path)).toContain('migrations/0001_stores.sql');
  const script = (load: string) =>
    `${load}.then(async ({ migrate, fromPGlite }) => { const { PGlite } = await import('@electric-sql/pglite'); const db = await PGlite.create(); process.stdout.write(JSON.stringify(await migrate(fromPGlite(db)))); await db.close(); })`;
  const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: import.meta.dirname, encoding: 'utf8' });
  expect(run(['--input-type=commonjs', '-e', script("Promise.resolve(require('@paymount/postgres'))")])).toBe('["0001_stores"]');
  expect(run(['--input-type=module', '-e', script("import('@paymount/postgres')")])).toBe('["0001_stores"]');
}, 180_000);

it('publint and Are The Types Wrong find no problem in the packed package', () => {
  expect(() => assertPackageLints(`${import.meta.dirname}/..`)).not.toThrow();
}, 120_000);
