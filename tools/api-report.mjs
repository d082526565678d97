#!/usr/bin/env node
// The API report: for every entry in a package's `exports` map, the names its built declarations
// export, each with its kind and declaration, written to api/<package>.<entry>.md. The reports are
// checked in and compared by each package's api-report test, so a change of the public surface is
// a visible diff in review. Regenerate after a deliberate change with `npm run api:update`.
//
//   node tools/api-report.mjs           writes every package's reports (reads the built dist/)
//   node tools/api-report.mjs --check   exits 1 with a diff if a report is out of date
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const API_DIR = join(ROOT, 'api');
export const UPDATE_COMMAND = 'npm run api:update';
const REASONS_FILE = join(API_DIR, 'reasons.json');

/** The entries of a package's `exports` map that carry types: `.` is reported as `index`. */
function entriesOf(packageDir) {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  return Object.entries(manifest.exports ?? {})
    // A subpath split by runtime condition (core's node and web builds) has one set of types: the node branch's.
    .map(([subpath, target]) => [subpath, typeof target === 'object' && target.node ? target.node : target])
    .filter(([, target]) => typeof target === 'object' && target.import?.types)
    // `./internal` is the workspace's own (core's sandbox and tests): no public surface to review.
    .filter(([subpath]) => subpath !== './internal')
    .map(([subpath, target]) => ({
      packageName: manifest.name,
      subpath,
      entry: subpath === '.' ? 'index' : subpath.slice(2).replaceAll('/', '-'),
      specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
      types: join(packageDir, target.import.types),
    }));
}

const KINDS = new Map([
  [ts.SyntaxKind.ClassDeclaration, 'class'],
  [ts.SyntaxKind.FunctionDeclaration, 'function'],
  [ts.SyntaxKind.VariableDeclaration, 'const'],
  [ts.SyntaxKind.InterfaceDeclaration, 'interface'],
  [ts.SyntaxKind.TypeAliasDeclaration, 'type'],
  [ts.SyntaxKind.EnumDeclaration, 'enum'],
  [ts.SyntaxKind.ModuleDeclaration, 'namespace'],
]);

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** A declaration as the user's compiler sees it, without comments and without the bundle's chunk names. */
function printDeclaration(node) {
  const printed = ts.isVariableDeclaration(node)
    ? `const ${printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile())};`
    : printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile());
  return printed.replace(/^(export )?(declare )?/, '').replace(/import\("[^"]*"\)\./g, '');
}

function reportEntry({ packageName, specifier, entry, types }, reasons) {
  const program = ts.createProgram([types], { strict: true, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(types));
  const names = checker.getExportsOfModule(moduleSymbol).map((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declarations = symbol.declarations ?? [];
    return {
      name: exported.name,
      runtime: (symbol.flags & ts.SymbolFlags.Value) !== 0,
      kind: [...new Set(declarations.map((d) => KINDS.get(d.kind) ?? ts.SyntaxKind[d.kind]))].join(' + '),
      text: declarations.map(printDeclaration).join('\n'),
    };
  });
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const runtime = names.filter((n) => n.runtime);
  const typeOnly = names.filter((n) => !n.runtime);
  const why = reasons[specifier];
  const section = (title, list) => [
    `## ${title}`,
    '',
    ...list.flatMap((n) => [
      `### \`${n.name}\` (${n.kind})`,
      '',
      ...(why?.[n.name] ? [`Why public: ${why[n.name]}`, ''] : []),
      '```ts',
      n.text,
      '```',
      '',
    ]),
  ];
  const lines = [
    `# ${specifier}`,
    '',
    `<!-- Generated from ${packageName}'s built declarations by \`${UPDATE_COMMAND}\`; do not edit. -->`,
    '',
    `${runtime.length} runtime names, ${typeOnly.length} type-only names.`,
    '',
    ...section('Runtime names', runtime),
    ...section('Types', typeOnly),
  ];
  const missingReasons = why ? runtime.filter((n) => !why[n.name]).map((n) => n.name) : [];
  return { file: join(API_DIR, `${packageName.replace(/^@paymount\//, '')}.${entry}.md`), text: `${lines.join('\n').trimEnd()}\n`, missingReasons };
}

/** Every report of one package (its built dist/ must be current). */
export function packageReports(packageDir) {
  const reasons = existsSync(REASONS_FILE) ? JSON.parse(readFileSync(REASONS_FILE, 'utf8')) : {};
  return entriesOf(packageDir).map((entry) => ({ ...reportEntry(entry, reasons), specifier: entry.specifier }));
}

/** Lines removed (-) and added (+), in order: enough to show what changed in a report. */
export function lineDiff(before, after) {
  const a = before.split('\n');
  const b = after.split('\n');
  const lcs = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) out.push(`+ ${b[j++]}`);
    else out.push(`- ${a[i++]}`);
  }
  return out.join('\n');
}

/** The problems of one package's checked-in reports: an empty list when they match its build. */
export function apiReportProblems(packageDir) {
  return packageReports(packageDir).flatMap(({ file, text, missingReasons, specifier }) => {
    const problems = [];
    if (missingReasons.length > 0) {
      problems.push(`${specifier}: no reason in api/reasons.json for the runtime names ${missingReasons.join(', ')}`);
    }
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (current !== text) {
      problems.push(
        `${specifier}: the public API differs from ${file.slice(ROOT.length)}:\n${lineDiff(current, text)}\n` +
          `If the change is deliberate, run \`${UPDATE_COMMAND}\` and commit api/.`,
      );
    }
    return problems;
  });
}

function packageDirs() {
  const packages = join(ROOT, 'packages');
  return readdirSync(packages)
    .map((name) => join(packages, name))
    // A manifest whose code has not landed (no src yet) has no API to report.
    .filter((dir) => existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src')));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const problems = packageDirs().flatMap(apiReportProblems);
    for (const problem of problems) console.error(problem);
    process.exitCode = problems.length > 0 ? 1 : 0;
  } else {
    for (const dir of packageDirs()) {
      for (const { file, text, missingReasons, specifier } of packageReports(dir)) {
        writeFileSync(file, text);
        console.log(`wrote ${file.slice(ROOT.length)}`);
        if (missingReasons.length > 0) console.error(`${specifier}: add a reason to api/reasons.json for ${missingReasons.join(', ')}`);
      }
    }
  }
}
