// The `express4` alias installs Express 4 next to Express 5 for the tests; its API is typed as Express's.
declare module 'express4' {
  import express from 'express';
  export default express;
}
