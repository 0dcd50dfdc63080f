// The three Lua scripts of the Redis conversation store, byte for byte the
// canonical files e2e/vectors/store/{create,load,register}.lua (the tests
// compare them, and their SHA-1 with e2e/vectors/store/layout.json).

/** create(key; ttl, epoch): 1, or 0 when the key exists. */
export const createScript = `-- create(KEYS[1] = conversation key; ARGV[1] = idle TTL in ms, ARGV[2] = epoch)
-- 0 when the key exists (the caller mints another handle), else 1.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'v', '1', 'epoch', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`;

/** load(key; ttl): the fields and values, nil when missing; renews the TTL. */
export const loadScript = `-- load(KEYS[1] = conversation key; ARGV[1] = idle TTL in ms)
-- nil when the conversation is missing (expired), else its fields and values.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return redis.call('HGETALL', KEYS[1])
`;

/** register(key; ttl, epoch, prefix, uuid, …): the fields and values, or an EXPIRED error. */
export const registerScript = `-- register(KEYS[1] = conversation key; ARGV[1] = idle TTL in ms,
--   ARGV[2] = epoch read by load, ARGV[3], ARGV[4], ... = prefix, uuid pairs)
-- An EXPIRED error when the conversation is missing or of another epoch;
-- else each UUID not yet known gets its prefix's next number, in order, and
-- the fields and values are returned.
local epoch = redis.call('HGET', KEYS[1], 'epoch')
if not epoch or epoch ~= ARGV[2] then
  return redis.error_reply('EXPIRED conversation missing or of another epoch')
end
if redis.call('HGET', KEYS[1], 'v') == '1' then
  for i = 3, #ARGV - 1, 2 do
    local prefix, uuid = ARGV[i], ARGV[i + 1]
    if redis.call('HEXISTS', KEYS[1], 'u:' .. uuid) == 0 then
      local n = redis.call('HINCRBY', KEYS[1], 'n:' .. prefix, 1)
      local alias = prefix .. '-' .. n
      redis.call('HSET', KEYS[1], 'a:' .. alias, uuid, 'u:' .. uuid, alias)
    end
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return redis.call('HGETALL', KEYS[1])
`;
