// @ts-check
// The API reference inside the site: the repository's typedoc.json (its entry list and rules, one
// definition), written as Markdown pages for VitePress into reference/api (git-ignored) before each build.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const rootConfig = new URL('../typedoc.json', import.meta.url);
const { config: root, error } = ts.parseConfigFileTextToJson(rootConfig.pathname, readFileSync(rootConfig, 'utf8'));
if (error !== undefined) throw new Error(`../typedoc.json: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);

/** @type {Partial<import('typedoc').TypeDocOptions> & Record<string, unknown>} */
export default {
  ...root,
  entryPoints: root.entryPoints.map((/** @type {string} */ entry) => `../${entry}`),
  // A package README's relative links lead to files the site does not have; the guides stand in for them.
  packageOptions: { ...root.packageOptions, readme: 'none' },
  plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme'],
  out: 'reference/api',
  docsRoot: '.',
  entryFileName: 'index',
  sidebar: { autoConfiguration: true, format: 'vitepress', pretty: false, collapsed: true },
};
