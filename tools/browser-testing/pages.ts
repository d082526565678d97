import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Express } from 'express';
import { strictCsp } from './csp';

/** Where a test page loads `@paymount/browser` from: the package's built file, as a shop serves it. */
export const BROWSER_MODULE_PATH = '/paymount-browser.js';

/**
 * Serves an order page at `/?orderId=` under the strict CSP, with `content`
 * in its body, its script (`bundlePage`) at `/page.js` and
 * `@paymount/browser`'s built module (run the package's build first).
 */
export function serveOrderPage(app: Express, page: { sandboxUrl: string; script: string; content: string }): void {
  const browserModule = fileURLToPath(new URL('../../packages/browser/dist/index.js', import.meta.url));
  app.get(BROWSER_MODULE_PATH, (_req, res) => void res.type('text/javascript').send(readFileSync(browserModule, 'utf8')));
  app.get('/page.js', (_req, res) => void res.type('text/javascript').send(page.script));
  app.get('/', (req, res) => {
    res.set('content-security-policy', strictCsp(page.sandboxUrl));
    res.type('html').send(pageHtml('Order', { 'order-id': String(req.query['orderId']), 'sandbox-url': page.sandboxUrl }, page.content));
  });
}

/**
 * A test page's script, bundled by esbuild from TypeScript, with
 * `@paymount/browser` left as an import of the built file the page loads.
 * The repository's tsconfig paths are not applied, so the other workspace
 * packages resolve through their package.json, to their built files. `mode`
 * picks React's build.
 */
export async function bundlePage(entry: string, mode: 'production' | 'development' = 'production'): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
    tsconfigRaw: '{"compilerOptions":{"jsx":"react-jsx"}}',
    // React's development build is the one whose StrictMode mounts every effect twice.
    define: { 'process.env.NODE_ENV': JSON.stringify(mode) },
    plugins: [
      {
        name: 'built-browser-module',
        setup(plugin) {
          plugin.onResolve({ filter: /^@paymount\/browser$/ }, () => ({ path: BROWSER_MODULE_PATH, external: true }));
        },
      },
    ],
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild wrote nothing for ${entry}`);
  return output.text;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page whose only script is `/page.js`, a module (nothing inline); `data` become the body's `data-*` attributes. */
function pageHtml(title: string, data: Record<string, string>, content: string): string {
  const attributes = Object.entries(data).map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`).join('');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title><script type="module" src="/page.js"></script></head>
<body${attributes}>
${content}
</body>
</html>`;
}
