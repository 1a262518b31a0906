-- src/bench/run cluster-capacity: new sessions only. Every request carries a JSESSIONID never sent before, so that
-- each is a session's first request: jwd binds it in its temporary table (SessionTableTimeout) at request time,
-- which in cluster mode is a new binding on the Terracotta server (and the "no binding" marker of its learned key).
-- Usage: wrk ... -s src/bench/wrk-new-sessions.lua URL -- PREFIX
-- PREFIX (letters and digits) must differ between wrk processes and runs: with each thread's number and a counter it
-- makes the ids, PREFIX<thread><counter>, e.g. NEWr1c4n1w0100000001. No route suffix ('.b1'), no server name: jwd
-- finds nothing in the id to route by and goes through its tables.
local next_thread = 0

function setup(thread)
  next_thread = next_thread + 1
  thread:set("thread_number", next_thread)
end

function init(args)
  prefix = args[1] or error("wrk-new-sessions.lua: a PREFIX argument is needed (wrk ... -- PREFIX)")
  assert(prefix:match("^[%w]+$"), "wrk-new-sessions.lua: PREFIX must be letters and digits, not '" .. prefix .. "'")
  counter = 0
  path = wrk.path
end

function request()
  counter = counter + 1
  local id = string.format("%s%02d%08X", prefix, thread_number, counter)
  return wrk.format("GET", path, { ["Cookie"] = "JSESSIONID=" .. id .. "; other=1" })
end
