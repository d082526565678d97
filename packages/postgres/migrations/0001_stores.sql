-- @paymount/postgres: the tables of its stores. migrate() applies this file once,
-- replacing the `paymount_` of each name with its tablePrefix option and
-- creating them in its schema option (else in the search_path's first schema).
-- To apply it with another migration tool, copy it as is (or with that prefix
-- replaced), and give createPostgresStores the same names and `migrate: false`.
--
-- Every expiry is the database's clock (`expires_at` compared to
-- clock_timestamp()), never an app's: instances whose clocks differ agree on
-- when a claim or lock has lapsed. A row past its expiry is free; expired rows
-- are deleted in small batches by the stores.

-- One row per webhook event (its dedupe key): claimed while its handlers run
-- (`processing`, with the claimant's token and a lease the claimant renews),
-- then `done` for the dedupe TTL.
CREATE TABLE paymount_webhook_events (
  key text PRIMARY KEY,
  state text NOT NULL CHECK (state IN ('processing', 'done')),
  token text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX paymount_webhook_events_expires_at ON paymount_webhook_events (expires_at);

-- The per-order lock a payment request holds while it acts on the order.
CREATE TABLE paymount_order_locks (
  reference_order_id text PRIMARY KEY,
  token text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX paymount_order_locks_expires_at ON paymount_order_locks (expires_at);

-- Each order's current payment attempt (core's OrderAttempt, one column per field).
CREATE TABLE paymount_order_attempts (
  reference_order_id text PRIMARY KEY,
  kind text NOT NULL,
  transaction_request_id text NOT NULL,
  sequence integer,
  state text NOT NULL,
  amount bigint,
  currency text,
  in_flight_until bigint,
  session_id text,
  checkout_url text,
  session_expires_at bigint,
  transaction_id text,
  handled_state text,
  updated_at bigint NOT NULL,
  expires_at timestamptz NOT NULL
);
-- Unsettled attempts (core's isUnsettled: the handled state is not the state), for reconciliation.
CREATE INDEX paymount_order_attempts_unsettled ON paymount_order_attempts (updated_at) WHERE handled_state IS DISTINCT FROM state;
CREATE INDEX paymount_order_attempts_expires_at ON paymount_order_attempts (expires_at);
