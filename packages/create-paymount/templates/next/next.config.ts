import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // The shop's URL as it prints it: next dev refuses its own scripts' connections (HMR) from any host
  // but localhost unless named here, and the page then reloads over and over.
  allowedDevOrigins: ['127.0.0.1'],
  // Loaded by Node.js as installed, not bundled: PGlite and @paymount/postgres read their own files
  // (WebAssembly, migrations) beside their code, and the sandbox is a whole server of its own.
  serverExternalPackages: ['@electric-sql/pglite', '@paymount/postgres', '@paymount/sandbox'],
  turbopack: {
    // src/database.ts and src/payments.ts, shared with the other templates, import `./orders.js` as
    // Node.js's ES modules do; Turbopack resolves no `.js` import to its `.ts` file, so this one is named.
    resolveAlias: { './orders.js': './src/orders.ts' },
  },
};

export default nextConfig;
