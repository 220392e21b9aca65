-- wrk script for mihiraki serve, shared by bench/server.py and the test
-- suite. The caller prepends the settings:
--   mode = "cached" | "new"; cached = path of one spread;
--   book = an encoded id; spreads = its spread count; size = "x300"
-- "new" makes every request a new render: the background colour changes
-- each time (no geometry changes), the spread cycles through the book.
-- done() prints "status CODE COUNT" lines; a 503 without Retry-After is
-- counted as "503-without-retry-after".
local threads = {}
function setup(thread) table.insert(threads, thread); thread:set("id", #threads) end
counter = 0
counts = {}
function request()
  counter = counter + 1
  if mode == "cached" then return wrk.format("GET", cached) end
  local colour = string.format("%06x", (id * 7919 * 1000003 + counter) % 16777216)
  return wrk.format("GET", "/api/books/" .. book .. "/spreads/" .. (counter % spreads + 1) .. ".png?size=" .. size
    .. "&background=%23" .. colour)
end
function response(status, headers, body)
  local key = tostring(status)
  if status == 503 then
    local retry = false
    for name, _ in pairs(headers) do if string.lower(name) == "retry-after" then retry = true end end
    if not retry then key = "503-without-retry-after" end
  end
  counts[key] = (counts[key] or 0) + 1
end
function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for key, n in pairs(thread:get("counts")) do total[key] = (total[key] or 0) + n end
  end
  for key, n in pairs(total) do io.write("status ", key, " ", n, "\n") end
end
