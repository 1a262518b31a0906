-- src/bench/run, scenario 2: sticky clients. Each wrk thread has its own sessions and sends them in turn, one per
-- request, so every proxy's affinity (jwd's session table, HAProxy's stick table, nginx's hash, Jetty's
-- BalancerServlet route suffix) works with many sessions at once, not one hot entry.
-- Usage: wrk ... -s src/bench/wrk-sticky.lua URL -- SESSIONS_PER_THREAD [timeline]
-- With "timeline" (src/bench/run cold), wrk also prints how many requests its threads sent in each second of the clock,
-- one line "timeline EPOCH_SECOND REQUESTS" per second: with keep-alive and no pipelining, a connection sends its
-- next request when the answer to the last has come, so this is the rate second by second.
-- Session ids look like a Java server's with a route suffix: BENCH<thread><n>.b1 or .b2, alternating. The
-- suffix is what BalancerServlet sticks by; jwd (no server.<id>.route configured here), HAProxy and nginx
-- treat the whole id as an opaque key.
-- With BENCH_THINK_MS=N in the environment (src/bench/run's BENCH_THINK_MS), each connection waits N ms after an answer
-- before its next request, as a user reads a page: the load is then about connections x 1000 / (N + latency)
-- requests per second for every proxy alike, below their capacity, and the latencies compare what each proxy adds
-- to a request at the same load instead of how much it queues at its own saturation (wrk's closed loop).
-- wrk asks whether delay() exists once, after loading the script and before init(), so it is defined here or not at
-- all: a delay() returning 0 would still cost a timer per request.
local think = tonumber(os.getenv("BENCH_THINK_MS") or "0") or 0
if think > 0 then
  function delay()
    return think
  end
end
local next_thread = 0
local threads = {}

function setup(thread)
  next_thread = next_thread + 1
  thread:set("thread_number", next_thread)
  threads[next_thread] = thread
end

function init(args)
  local count = tonumber(args[1]) or 1000
  local path = wrk.path
  requests = {}
  for i = 1, count do
    local route = (i % 2 == 0) and "b2" or "b1"
    local id = string.format("BENCH%02d%08X.%s", thread_number, i, route)
    requests[i] = wrk.format("GET", path, { ["Cookie"] = "JSESSIONID=" .. id .. "; other=1" })
  end
  position = 0
  timeline = args[2] == "timeline"
  sent = {}
end

function request()
  if timeline then
    local second = os.time()
    sent[second] = (sent[second] or 0) + 1
  end
  position = position + 1
  if position > #requests then
    position = 1
  end
  return requests[position]
end

function done(summary, latency, requests)
  local total, seconds = {}, {}
  for _, thread in ipairs(threads) do
    if thread:get("timeline") then
      for second, count in pairs(thread:get("sent")) do
        if not total[second] then seconds[#seconds + 1] = second end
        total[second] = (total[second] or 0) + count
      end
    end
  end
  table.sort(seconds)
  for _, second in ipairs(seconds) do
    io.write(string.format("timeline %d %d\n", second, total[second]))
  end
end
