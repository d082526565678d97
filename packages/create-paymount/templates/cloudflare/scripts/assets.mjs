// wrangler's build step (wrangler.jsonc `build`): the browser's files where the Worker serves them
// as static assets, /assets/<name>: the shop's own (public/) and @paymount/browser's module as the
// package ships it, which public/shop.js imports.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const target = join('dist', 'static', 'assets');
mkdirSync(target, { recursive: true });
for (const name of readdirSync('public')) copyFileSync(join('public', name), join(target, name));
copyFileSync(createRequire(import.meta.url).resolve('@paymount/browser'), join(target, 'paymount-browser.js'));
