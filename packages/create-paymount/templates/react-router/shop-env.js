// Loaded after production-env.js, before react-router-serve, which sets NODE_ENV=production when it is not set
// (React renders on the server in its production build only then). The shop's settings take the NODE_ENV that
// was set before it (app/shop.server.ts): not set, `npm start` serves the production build on the embedded
// sandbox; NODE_ENV=production, on the payment service, with every setting of .env.example it needs.
process.env.SHOP_NODE_ENV = process.env.NODE_ENV ?? '';
