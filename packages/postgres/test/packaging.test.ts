import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { assertPackageExports, assertPackageLints } from '../../../tools/packaging';

it('the built package loads from require() and import with its public names', () => {
  expect(() =>
    assertPackageExports('@paymount/postgres', import.meta.dirname, [
      'createPostgresStores',
      'migrate',
      'fromPg',
      'fromNeon',
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

// One Node process and one PGlite: opening PGlite takes tens of seconds with both cores busy, and the test timed out
// at 180 s in a loaded CI run when each module system had a process and a PGlite of its own. The module systems
// migrate two table prefixes, so each applies the migration it finds in the packed files.
it('the packed package ships the SQL migrations that migrate() applies, from both module systems', () => {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: `${import.meta.dirname}/..`, encoding: 'utf8' })) as [
    { files: Array<{ path: string }> },
  ];
  expect(packed[0].files.map((file) => file.path)).toContain('migrations/0001_stores.sql');
  const script = `
    import { createRequire } from 'node:module';
    import { PGlite } from '@electric-sql/pglite';
    const fromCommonJs = createRequire(import.meta.url)('@paymount/postgres');
    const fromModule = await import('@paymount/postgres');
    const db = await PGlite.create();
    const applied = {
      commonjs: await fromCommonJs.migrate(fromCommonJs.fromPGlite(db), { tablePrefix: 'cjs_' }),
      module: await fromModule.migrate(fromModule.fromPGlite(db), { tablePrefix: 'esm_' }),
    };
    await db.close();
    process.stdout.write(JSON.stringify(applied));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: import.meta.dirname, encoding: 'utf8' });
  expect(JSON.parse(output)).toEqual({ commonjs: ['0001_stores'], module: ['0001_stores'] });
}, 180_000);

it('publint and Are The Types Wrong find no problem in the packed package', () => {
  expect(() => assertPackageLints(`${import.meta.dirname}/..`)).not.toThrow();
}, 120_000);
