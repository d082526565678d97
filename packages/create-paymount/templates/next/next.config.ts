import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // The shop's URL as it prints it: next dev refuses its own scripts' connections (HMR) from any host
  // but localhost unless named here, and the page then reloads over and over.
  allowedDevOrigins: ['127.0.0.1'],
  // Loaded by Node.js as installed, not bundled: PGlite and @paymount/postgres read their own files
  // (WebAssembly, migrations) beside their code, and the sandbox is a whole server of its own.
  serverExternalPackages: ['@electric-sql/pglite', '@paymount/postgres', '@paymount/sandbox'],
  turbopack: {
    // src/database.ts, src/config.ts, src/payments.ts and src/product-list.tsx, shared with the other templates, import their
    // modules as Node.js's ES modules do (`./orders.js`); Turbopack resolves no `.js` import to its `.ts`
    // file, so each is named.
    resolveAlias: { './catalog.js': './src/catalog.ts', './orders.js': './src/orders.ts', './config-rules.js': './src/config-rules.ts', './order-rules.js': './src/order-rules.ts', './payment-rules.js': './src/payment-rules.ts' },
  },
};

export default nextConfig;
