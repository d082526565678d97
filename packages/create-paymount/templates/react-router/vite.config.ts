// The default template's vite.config.ts without Tailwind; Vite 8 resolves the tsconfig's `~/*` paths itself,
// in place of vite-tsconfig-paths.
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [reactRouter()],
  resolve: { tsconfigPaths: true },
});
