// `npx sv create --template minimal --types ts` (sv 0.17.1)'s vite.config.ts, with adapter-node in place of
// adapter-auto, the shop's Content Security Policy, and its tests type-checked.
import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig, loadEnv } from 'vite';

// The settings as the server reads them (.env, then the environment's own): the policy is written by the
// build, so build with the PAYMENT_* settings you serve with (npm start does). NODE_ENV says nothing here:
// vite build sets it to production.
const env = loadEnv('production', process.cwd(), '');
const onSandbox = !Object.keys(env).some((name) => name.startsWith('PAYMENT_') && env[name] !== '');
// Where the wallet's script comes from: the embedded sandbox (on a port of this machine picked at start), or the
// wallet's client library.
const wallet = (onSandbox ? 'http://127.0.0.1:*' : new URL(env['WALLET_SCRIPT_URL'] || 'https://pay.google.com/gp/p/js/pay.js').origin) as `${string}://${string}.${string}`;

export default defineConfig({
	plugins: [
		sveltekit({
			compilerOptions: {
				// Force runes mode for the project, except for libraries. Can be removed in svelte 6.
				runes: ({ filename }) =>
					filename.split(/[/\\]/).includes('node_modules') ? undefined : true
			},
			adapter: adapter(),
			// Scripts only from the shop and the wallet: a page that handles a wallet token runs nothing else.
			// SvelteKit's own bootstrap script gets a nonce.
			csp: {
				mode: 'auto',
				directives: {
					'default-src': ['none'],
					'script-src': ['self', wallet],
					'connect-src': ['self', wallet],
					'frame-src': [wallet],
					'style-src': ['self'],
					// Two inline style attributes, each allowed by its hash alone: app.html's `display: contents`
					// and the one of the route announcer SvelteKit adds once the page is hydrated.
					'style-src-attr': [
						'unsafe-hashes',
						'sha256-tcbDxjMo+xKqM21aCGYbs/QAJqB7yUXC06oPWDapBgc=',
						'sha256-S8qMpvofolR8Mpjy4kQvEm7m1q8clzU4dfDH0AmvZjo='
					],
					'img-src': ['self'],
					'object-src': ['none'],
					'base-uri': ['none'],
					'frame-ancestors': ['none']
				}
			},
			// svelte-check reads the project SvelteKit writes, which leaves out test/.
			typescript: { config: (config) => void (config['include'] as string[]).push('../test/**/*.ts') }
		})
	]
});
