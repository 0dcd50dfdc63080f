-- loaded-tools(KEYS[1] = conversation key; ARGV[1] = idle TTL in ms)
-- nil when the conversation is missing (expired), else its 'v' and 't:'
-- fields and values; renews the TTL.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
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
