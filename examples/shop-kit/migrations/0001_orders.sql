-- The example shops' own tables, beside paymount's (paymount_*) in the same database.
-- Applied at every start (examples/shop-kit/src/shop-database.ts): each statement is idempotent.

CREATE TABLE IF NOT EXISTS shop_orders (
  id text PRIMARY KEY,
  -- The product as it was sold: the catalogue may change, the order does not.
  product jsonb NOT NULL,
  total integer NOT NULL CHECK (total > 0),
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'failed', 'partially_refunded', 'refunded')),
  note text NOT NULL,
  payment_transaction_id text,
  created_at timestamptz NOT NULL
);

CREATE INDEX IF NOT EXISTS shop_orders_payment_transaction_id ON shop_orders (payment_transaction_id);

CREATE TABLE IF NOT EXISTS shop_refunds (
  order_id text NOT NULL REFERENCES shop_orders (id),
  request_id text NOT NULL,
  -- The order the refunds were asked for in.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  amount integer NOT NULL CHECK (amount >= 0),
  state text NOT NULL CHECK (state IN ('requested', 'succeeded', 'failed')),
  transaction_id text,
  reason text,
  PRIMARY KEY (order_id, request_id)
);
