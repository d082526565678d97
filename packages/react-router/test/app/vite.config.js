import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [reactRouter()],
  // @paymount/* are workspace links: kept at their node_modules path, the server build imports them as it would an install.
  resolve: { preserveSymlinks: true },
});
