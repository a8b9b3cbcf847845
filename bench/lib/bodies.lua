-- wrk script: POSTs each line of a file once, as the body of its own request (wrk itself
-- sends one body again and again), and times them from the first request to the response
-- to the last counted line.
--   wrk -t1 -c16 -d600s -s bodies.lua URL -- BODIES_FILE COUNTED CONTENT_TYPE
-- The file holds COUNTED lines and, after them, one spare line per connection: the
-- requests a connection sends while the last counted ones are in flight. At the last
-- counted response it prints, and stops sending:
--   BODIES {"responses":N,"ok":N,"microseconds":N}
-- wrk runs on to the end of -d all the same: the caller ends it once it has read that line.
-- One thread (-t1), so that the counters are one. LuaJIT's FFI gives the monotonic clock.

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } bodies_timespec;
  int clock_gettime(int clock, bodies_timespec *time);
]]
local CLOCK_MONOTONIC = 1
local clock = ffi.new("bodies_timespec")
local function micros()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, clock)
  return tonumber(clock.tv_sec) * 1e6 + tonumber(clock.tv_nsec) / 1e3
end

local bodies, counted, contentType
local sent, responses, ok, started = 0, 0, 0, nil

function init(args)
  bodies = {}
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
  counted = tonumber(args[2])
  contentType = args[3]
end

function request()
  started = started or micros()
  sent = sent + 1
  local body = bodies[sent] or bodies[#bodies]
  return wrk.format("POST", nil, { ["Content-Type"] = contentType, ["Accept"] = "text/uri-list" }, body)
end

function response(status)
  responses = responses + 1
  if status == 200 then ok = ok + 1 end
  if responses == counted then
    io.write(string.format('BODIES {"responses":%d,"ok":%d,"microseconds":%d}\n', responses, ok, micros() - started))
    io.flush()
    wrk.thread:stop()
  end
end
