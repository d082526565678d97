/**
 * Lua run atomically by Redis. Each compares the key's value with the token
 * of the claim this process made, so that a late call (after the claim
 * expired and another instance claimed the key) never touches someone
 * else's claim.
 */

/** KEYS[1] key, ARGV[1] token. Deletes the key only while it still holds our token. */
export const RELEASE_IF_OWNED = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0`;

/**
 * KEYS[1] key, ARGV[1] token, ARGV[2] ttl ms. Sets the key's TTL anew only
 * while it still holds our token: a claim that expired, was completed or was
 * taken by another instance is left as it is.
 */
export const RENEW_IF_OWNED = `
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0`;

/**
 * KEYS[1] key, ARGV[1] token, ARGV[2] done marker, ARGV[3] ttl ms. Marks the
 * key done for the TTL while it holds our token, or when it has expired
 * meanwhile (the work is done: remembering it is right). Another owner's
 * claim is left alone.
 */
export const COMPLETE_IF_OWNED_OR_FREE = `
local value = redis.call('get', KEYS[1])
if value == ARGV[1] or value == false then
  redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`;

/** KEYS[1] attempt hash, ARGV[1] ttl ms, ARGV[2..] field, value, ... Replaces the whole attempt at once. */
export const REPLACE_ATTEMPT = `
redis.call('del', KEYS[1])
redis.call('hset', KEYS[1], unpack(ARGV, 2))
redis.call('pexpire', KEYS[1], ARGV[1])
return 1`;

/**
 * KEYS[1] attempt hash, ARGV[1] transactionRequestId, ARGV[2] state,
 * ARGV[3] transactionId or '', ARGV[4] '1' when the state's event was
 * handled, ARGV[5] updatedAt, ARGV[6] ttl ms. The rule of core's
 * `settledAttempt`, applied atomically: only to the order's current attempt,
 * and never away from `succeeded`. Answers the resulting state and handled
 * state, or false when nothing changed.
 */
export const SETTLE_IF_CURRENT = `
if redis.call('hget', KEYS[1], 'transactionRequestId') ~= ARGV[1] then return false end
if redis.call('hget', KEYS[1], 'state') == 'succeeded' and ARGV[2] ~= 'succeeded' then return false end
redis.call('hset', KEYS[1], 'state', ARGV[2], 'updatedAt', ARGV[5])
if ARGV[3] ~= '' then redis.call('hset', KEYS[1], 'transactionId', ARGV[3]) end
if ARGV[4] == '1' then redis.call('hset', KEYS[1], 'handledState', ARGV[2]) end
redis.call('pexpire', KEYS[1], ARGV[6])
return {ARGV[2], redis.call('hget', KEYS[1], 'handledState') or ''}`;
