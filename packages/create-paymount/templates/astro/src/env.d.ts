// What src/middleware.ts puts in every request's `locals`.
declare namespace App {
  interface Locals {
    shop: import('./shop-services.js').ShopServices;
  }
}
