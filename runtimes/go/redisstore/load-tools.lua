-- load-tools(KEYS[1] = conversation key; ARGV[1] = idle TTL in ms,
--   ARGV[2] = epoch read by load, ARGV[3], ARGV[4], ... = tool names)
-- An EXPIRED error when the conversation is missing or of another epoch;
-- else each name without a 't:<name>' field gets the next position ('tn'),
-- in order, and the 'v' and 't:' fields and values are returned.
local epoch = redis.call('HGET', KEYS[1], 'epoch')
if not epoch or epoch ~= ARGV[2] then
  return redis.error_reply('EXPIRED conversation missing or of another epoch')
end
if redis.call('HGET', KEYS[1], 'v') == '1' then
  for i = 3, #ARGV do
    local field = 't:' .. ARGV[i]
    if redis.call('HEXISTS', KEYS[1], field) == 0 then
      redis.call('HSET', KEYS[1], field, redis.call('HINCRBY', KEYS[1], 'tn', 1))
    end
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
local all = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 1, #all, 2 do
  if all[i] == 'v' or string.sub(all[i], 1, 2) == 't:' then
    out[#out + 1] = all[i]
    out[#out + 1] = all[i + 1]
  end
end
return out
