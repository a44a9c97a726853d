-- The entry named by ARGV[1]. Its errors become error replies here, as a
-- function's do: Redis 6's script error handler takes only string errors
-- (the library's {err = …} tables fail inside it) and wraps every error as
-- "ERR Error running script … @user_script:N: …", so a command's refusal
-- (WRONGTYPE, READONLY after a failover, OOM) would no longer be its own.
local ok, reply = pcall(FUNCTIONS[ARGV[1]], KEYS, ARGV, 1)
if ok then
  return reply
end
if type(reply) == 'table' and reply.err then
  return reply
end
-- Redis 6 raises a command's error as a string, sometimes behind where it
-- was called ("@user_script: 392: ") and with the reply's own '-'.
local text = string.gsub(string.gsub(tostring(reply), '^@[%w_]+: %d+: ', ''), '^%-', '')
if not string.find(text, '^%u+ ') then
  text = 'ERR ' .. text
end
return redis.error_reply(text)
