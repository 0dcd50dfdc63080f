-- load(KEYS[1] = conversation key; ARGV[1] = idle TTL in ms)
-- nil when the conversation is missing (expired), else its fields and values.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return redis.call('HGETALL', KEYS[1])
