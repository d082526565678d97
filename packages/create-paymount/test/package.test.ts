import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { knownFrameworks, TEMPLATES_DIR } from '../src/scaffold';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('the published package', () => {
  it('holds the bin and every template file, _gitignore and .env.example included', () => {
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: packageDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as { files: { path: string }[] }[];
    const files = packed!.files.map((file) => file.path);
    expect(files).toEqual(expect.arrayContaining(['dist/cli.js', 'templates/shared/_gitignore', 'templates/shared/.env.example', 'templates/shared/src/payments.ts', 'templates/express/package.json', 'templates/express/src/app.ts']));
    expect(files.filter((file) => file.startsWith('src/') || file.startsWith('test/'))).toEqual([]);
    // npm links the bin as it is: it must be executable.
    expect(statSync(new URL('../dist/cli.js', import.meta.url)).mode & 0o111).not.toBe(0);
  });
});

describe('the templates', () => {
  it("install only @paymount packages this package's devDependencies name, so turbo builds them before the proof packs them", () => {
    const manifest = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    const own = Object.keys(manifest(join(packageDir, 'package.json')).devDependencies ?? {});
    for (const framework of knownFrameworks()) {
      const { dependencies = {}, devDependencies = {} } = manifest(join(TEMPLATES_DIR, framework, 'package.json'));
      const paymount = Object.keys({ ...dependencies, ...devDependencies }).filter((name) => name.startsWith('@paymount/'));
      expect(paymount.filter((name) => !own.includes(name)), framework).toEqual([]);
    }
  });

  it('each have their proof, test/templates/<framework>.test.ts, which CI runs', () => {
    const unproved = knownFrameworks().filter((framework) => {
      const proof = join(packageDir, 'test/templates', `${framework}.test.ts`);
      return !existsSync(proof) || !readFileSync(proof, 'utf8').includes(`proveTemplate('${framework}')`);
    });
    expect(unproved).toEqual([]);
  });
});
