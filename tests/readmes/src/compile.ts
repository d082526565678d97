import { join } from 'node:path';
import ts from 'typescript';
import { optionsAndDeclarationDiagnostics } from '../../../tools/declaration-diagnostics';
import { generatedDir, type BlockFile } from './workspace';

/** The settings of `blocks.tsconfig.json`, through the tsconfig written next to the blocks. */
function blockCompilerOptions(): ts.CompilerOptions {
  const path = join(generatedDir, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(path, (file) => ts.sys.readFile(file));
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(config, ts.sys, generatedDir, undefined, path).options;
}

/** How a reader's project compiles a pasted block. */
export interface Setting {
  name: string;
  /** Which copy of the block: the CommonJS tree's file is CommonJS under `module: nodenext`. */
  file: (block: BlockFile) => string;
  options: ts.CompilerOptions;
  /** The READMEs whose blocks a reader compiles this way: all but those of `BUNDLER_ONLY` unless said. */
  readmes?: 'all';
}

/**
 * READMEs of apps compiled under `moduleResolution: bundler` only: a Next.js app's (create-next-app's
 * tsconfig), whose `next build` (Turbopack) resolves no `./x.js` import to `x.ts` under it, so the
 * README imports its own files without an extension, which `module: nodenext` refuses (TS2835).
 */
const BUNDLER_ONLY = ['next'];

/** Whether a reader compiles `block` under `setting`. */
export function compiledUnder(setting: Setting, block: BlockFile): boolean {
  return setting.readmes === 'all' || !BUNDLER_ONLY.includes(block.readme);
}

export const settings: Setting[] = [
  { name: 'nodenext ESM', file: (block) => block.file, options: {} },
  {
    name: 'nodenext CommonJS',
    file: (block) => block.commonjsFile,
    // verbatimModuleSyntax forbids `import` and `export` in a CommonJS file (TS1295: a CommonJS app
    // that writes them turns it off, as TypeScript's message says); everything else stays as strict.
    // A block with top-level await is compiled in the form each README gives a CommonJS app
    // (commonjs-form.ts: the code after its imports in `async function main()`), so TS1309 is an error.
    options: { verbatimModuleSyntax: false },
  },
  { name: 'bundler', file: (block) => block.file, options: { module: ts.ModuleKind.Preserve, moduleResolution: ts.ModuleResolutionKind.Bundler }, readmes: 'all' },
];

export interface Compiled {
  /** The errors of each block, as `<readme> README.md:<line>: message`. */
  byBlock: Map<BlockFile, string[]>;
  /** Errors in paymount's published declarations, which `skipLibCheck: false` reports, and in the options. */
  library: string[];
}

function formatted(diagnostic: ts.Diagnostic): string {
  return `${diagnostic.file?.fileName ?? '(options)'}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
}

/**
 * READMEs whose blocks are compiled in a program of their own, because a package they import
 * declares more for the whole program than for its own app: `@koa/bodyparser` adds `rawBody: string`
 * to Node's `IncomingMessage`, which no Express app (its `rawBody` a Buffer) has beside it.
 */
const OWN_PROGRAM = ['koa'];

/** Compiles every block a reader compiles under `setting` (`compiledUnder`): those of OWN_PROGRAM in one program each, the others together. */
export function compileBlocks(all: BlockFile[], setting: Setting = settings[0]!): Compiled {
  const blocks = all.filter((block) => compiledUnder(setting, block));
  const groups = [blocks.filter((block) => !OWN_PROGRAM.includes(block.readme)), ...OWN_PROGRAM.map((readme) => blocks.filter((block) => block.readme === readme))];
  const compiled = groups.filter((group) => group.length > 0).map((group) => compileProgram(group, setting));
  return { byBlock: new Map(compiled.flatMap((each) => [...each.byBlock])), library: [...new Set(compiled.flatMap((each) => each.library))] };
}

function compileProgram(blocks: BlockFile[], setting: Setting): Compiled {
  const program = ts.createProgram(blocks.map(setting.file), { ...blockCompilerOptions(), ...setting.options });
  const byBlock = new Map<BlockFile, string[]>(blocks.map((block) => [block, []]));
  for (const block of blocks) {
    const source = program.getSourceFile(setting.file(block));
    if (!source) throw new Error(`${setting.file(block)} was not compiled`);
    for (const diagnostic of ts.getPreEmitDiagnostics(program, source)) {
      const at = diagnostic.start === undefined ? undefined : source.getLineAndCharacterOfPosition(diagnostic.start).line;
      const line = at === undefined ? block.line : block.line + at - block.preludeLines;
      byBlock.get(block)?.push(`${block.readme} README.md:${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    }
  }
  const library = optionsAndDeclarationDiagnostics(program).map(formatted);
  return { byBlock, library };
}
