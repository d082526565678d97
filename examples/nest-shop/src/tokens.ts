/** Injection token of the shop (orders, pages, payment options). */
export const SHOP = Symbol('shop');
