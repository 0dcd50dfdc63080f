-- create(KEYS[1] = conversation key; ARGV[1] = idle TTL in ms, ARGV[2] = epoch)
-- 0 when the key exists (the caller mints another handle), else 1.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'v', '1', 'epoch', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
