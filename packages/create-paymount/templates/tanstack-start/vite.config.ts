// TanStack Start's `start-basic` example (1.131)'s vite.config.ts, without its Tailwind and tsconfig-paths plugins.
import { tanstackStart } from '@tanstack/react-start/plugin/vite';
import viteReact from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  server: { port: 3000 },
  plugins: [tanstackStart({ customViteReactPlugin: true }), viteReact()],
});
