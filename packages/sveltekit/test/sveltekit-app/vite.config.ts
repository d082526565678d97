// `npx sv create --template minimal --types ts` (sv 0.17.1)'s vite.config.ts, with adapter-node in place of adapter-auto.
import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';

export default defineConfig({
	plugins: [
		sveltekit({
			compilerOptions: {
				// Force runes mode for the project, except for libraries. Can be removed in svelte 6.
				runes: ({ filename }) =>
					filename.split(/[/\\]/).includes('node_modules') ? undefined : true
			},
			adapter: adapter(),
			// SvelteKit refuses a cross-site form post before any route: the origin the conformance suite's
			// routes allow (ALLOWED_ORIGIN, tools/conformance/fixtures.ts) is trusted here too, as a shop allowing one does.
			csrf: { trustedOrigins: ['https://storefront.example'] },
			// The pages run under a strict policy: no inline script but SvelteKit's own, by nonce, and no eval.
			// The sandbox's port is picked when the app starts, so its origin is any port of 127.0.0.1; a shop
			// names its wallet's and its payment service's origins instead.
			csp: {
				mode: 'auto',
				directives: {
					'default-src': ['none'],
					'script-src': ['self', 'http://127.0.0.1:*'],
					'connect-src': ['self', 'http://127.0.0.1:*'],
					'form-action': ['self', 'http://127.0.0.1:*'],
					'style-src': ['self'],
					// Two inline style attributes, each allowed by its hash alone: the template app.html's
					// `display: contents` and the one of the route announcer SvelteKit adds once the page is hydrated.
					'style-src-attr': [
						'unsafe-hashes',
						'sha256-tcbDxjMo+xKqM21aCGYbs/QAJqB7yUXC06oPWDapBgc=',
						'sha256-S8qMpvofolR8Mpjy4kQvEm7m1q8clzU4dfDH0AmvZjo='
					],
					'img-src': ['self'],
					'base-uri': ['none'],
					'frame-ancestors': ['none']
				}
			}
		})
	],
	// Installed from npm, paymount's packages stay imports the server resolves at run time, as Vite leaves every
	// installed dependency; here they are workspace links, which Vite would bundle as the app's own source.
	// The components are .svelte source, which the app's own compiler takes in, as Vite does for an installed Svelte library.
	ssr: { external: ['@paymount/core', '@paymount/sveltekit'], noExternal: ['@paymount/sveltekit/components'] }
});
