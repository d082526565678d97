-- The shop's orders and staff sessions, in D1 (SQLite). Applied by `wrangler d1 migrations apply DB`
-- (`--local` for `npm start`, `--remote` before a deploy). paymount's stores are in its Durable Object;
-- its handled-event marks (paymount_handled_events) are made by @paymount/cloudflare in this database.

-- `paid` and `refunded` are final for payments: a late or replayed payment event never moves an order back.
CREATE TABLE shop_orders (
  id TEXT PRIMARY KEY,
  sku TEXT NOT NULL,
  name TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount > 0),
  currency TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'failed', 'paid', 'refunded')),
  transaction_id TEXT,
  created_at TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX shop_orders_by_transaction ON shop_orders (transaction_id);

-- The stub staff login's sessions: in D1, as every isolate must see them.
CREATE TABLE staff_sessions (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL DEFAULT (datetime('now'))
);
