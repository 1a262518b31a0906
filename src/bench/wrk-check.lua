-- src/bench/run's check before measuring: which backend answered each session, with which status and body.
-- Usage: wrk -t1 -c1 -d1s -s src/bench/wrk-check.lua URL -- none|sticky
-- With one connection, requests and responses alternate, so response() knows the session of its request.
-- "sticky" sends 32 sessions (ids with a route suffix, .b1 or .b2) in random order; "none" sends no cookie. 32, not 8:
-- nginx's consistent hash over two backends on new ports each run put all of 8 on one backend about once in a
-- hundred runs, and the check then failed a target that sticks.
-- Prints lines for src/bench/run to read:
--   check responses <n> status200 <n> setcookie <n> nobackend <n> minbody <n> maxbody <n>
--   check seen <session or -> <backend> <n>
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  sticky = args[1] == "sticky"
  sessions = {}
  for i = 1, 32 do
    sessions[i] = string.format("CHECK%04d.%s", i, (i % 2 == 0) and "b2" or "b1")
  end
  math.randomseed(42)
  current = "-"
  counts = { responses = 0, status200 = 0, setcookie = 0, nobackend = 0, minbody = 1e9, maxbody = 0 }
  seen = {}
end

function request()
  if not sticky then
    return wrk.format("GET", wrk.path, {})
  end
  -- In random order: sessions taken in turn could meet a round robin in step and look sticky when they are not.
  current = sessions[math.random(#sessions)]
  return wrk.format("GET", wrk.path, { ["Cookie"] = "JSESSIONID=" .. current })
end

function response(status, headers, body)
  counts.responses = counts.responses + 1
  if status == 200 then
    counts.status200 = counts.status200 + 1
  end
  local backend = nil
  for name, value in pairs(headers) do
    local lower = string.lower(name)
    if lower == "x-backend" then
      backend = value
    elseif lower == "set-cookie" and string.find(value, "JSESSIONID=", 1, true) then
      counts.setcookie = counts.setcookie + 1
    end
  end
  if backend == nil then
    counts.nobackend = counts.nobackend + 1
    backend = "none"
  end
  local length = body and string.len(body) or 0
  if length < counts.minbody then counts.minbody = length end
  if length > counts.maxbody then counts.maxbody = length end
  local key = current .. " " .. backend
  seen[key] = (seen[key] or 0) + 1
end

function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    local c = thread:get("counts")
    io.write(string.format("check responses %d status200 %d setcookie %d nobackend %d minbody %d maxbody %d\n",
      c.responses, c.status200, c.setcookie, c.nobackend, c.responses > 0 and c.minbody or 0, c.maxbody))
    for key, n in pairs(thread:get("seen")) do
      io.write(string.format("check seen %s %d\n", key, n))
    end
  end
end
