import ts from 'typescript';

/** An `await` (or `for await`) at the top level of `source`, outside every function. */
function hasTopLevelAwait(source: ts.SourceFile): boolean {
  const visit = (node: ts.Node): boolean => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
    if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier !== undefined)) return true;
    return ts.forEachChild(node, visit) ?? false;
  };
  return source.statements.some(visit);
}

/** What must stay at the top level of a module: imports, exports and ambient declarations (a prelude's `declare const`). */
function staysAtTop(statement: ts.Statement): boolean {
  const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
  return (
    ts.isImportDeclaration(statement) ||
    ts.isImportEqualsDeclaration(statement) ||
    ts.isExportDeclaration(statement) ||
    ts.isExportAssignment(statement) ||
    modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword || modifier.kind === ts.SyntaxKind.DeclareKeyword)
  );
}

/**
 * A block as a CommonJS app runs it: CommonJS has no top-level `await`, so, as each quick start's
 * README says, the code after the imports goes into `async function main()`, called once. Written
 * on the block's own lines (the opening before its first statement, the closing after its last),
 * so a diagnostic's line is still the README's. A block without top-level `await` is left as it is.
 * Only what follows the last import or export is wrapped: an `await` before it still fails the
 * CommonJS compile (TS1309), until the README puts its imports first.
 */
export function commonjsForm(code: string): string {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, true);
  if (!hasTopLevelAwait(source)) return code;
  const statements = source.statements;
  const lastAtTop = statements.map(staysAtTop).lastIndexOf(true);
  const body = statements.slice(lastAtTop + 1);
  if (body.length === 0) return code;
  const start = body[0]!.getFullStart();
  const end = body[body.length - 1]!.getEnd();
  return `${code.slice(0, start)} async function main(): Promise<void> {${code.slice(start, end)}\n}\nvoid main();${code.slice(end)}`;
}
