// The default template's vite.config.ts without Tailwind; Vite 8 resolves the tsconfig's `~/*` paths itself,
// in place of vite-tsconfig-paths.
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [reactRouter()],
  resolve: { tsconfigPaths: true },
  // `react-router dev` where the shop says it is (HOST, PORT): the sandbox sends its webhooks and shoppers there.
  server: { host: process.env['HOST'] || '127.0.0.1', port: Number(process.env['PORT'] || 3000), strictPort: true },
});
