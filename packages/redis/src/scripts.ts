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
