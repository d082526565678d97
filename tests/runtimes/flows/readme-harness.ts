// A README's app as a runtime serves it, with a way in for the test beside it: `POST /test/orders`
// adds an order to the README's own order store (`./orders.ts`), `GET /test/orders/<id>` reads what
// the README's webhook handlers made of it. Every other request is the app's. No imports: Deno, Bun
// and the Worker build take this file as it is.

/** What a runtime serves: a Hono app, or any module default export with `fetch`. */
interface Served {
  fetch(request: Request, ...rest: never[]): Response | Promise<Response>;
}

/** The README's order store (tests/readmes/context/orders.ts), as far as the test uses it. */
interface Orders {
  add(id: string, totalCents: number): unknown;
  find(id: string): Promise<unknown>;
}

const ORDERS_PATH = '/test/orders';

export function withTestOrders(app: Served, orders: Orders): Served {
  return {
    async fetch(request, ...rest) {
      const { pathname } = new URL(request.url);
      if (pathname === ORDERS_PATH && request.method === 'POST') {
        const { id, totalCents } = (await request.json()) as { id: string; totalCents: number };
        return Response.json(orders.add(id, totalCents), { status: 201 });
      }
      if (pathname.startsWith(`${ORDERS_PATH}/`)) {
        const order = await orders.find(decodeURIComponent(pathname.slice(ORDERS_PATH.length + 1)));
        return order === undefined ? Response.json({ found: false }, { status: 404 }) : Response.json(order);
      }
      return app.fetch(request, ...rest);
    },
  };
}
