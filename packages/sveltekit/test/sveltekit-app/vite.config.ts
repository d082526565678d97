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
			csrf: { trustedOrigins: ['https://storefront.example'] }
		})
	],
	// Installed from npm, paymount's packages stay imports the server resolves at run time, as Vite leaves every
	// installed dependency; here they are workspace links, which Vite would bundle as the app's own source.
	ssr: { external: ['@paymount/core', '@paymount/sveltekit'] }
});
