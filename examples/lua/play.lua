-- A game through ddz's C ABI from LuaJIT's FFI, as a Cocos2d-x Lua client would call it:
-- `ddzlib` against two `greedy` robots on the profile given (classic by default), every
-- action checked against the legal list, then an illegal action refused with its message.
--
--   luajit examples/lua/play.lua [PROFILE]      (libddz_ffi on LD_LIBRARY_PATH)
local ffi = require("ffi")

-- The declarations of ddz.h this client uses (LuaJIT's cdef takes plain declarations).
ffi.cdef [[
typedef struct DdzRules DdzRules;
typedef struct DdzGame DdzGame;
typedef struct DdzBot DdzBot;
const char *ddz_version(void);
const char *ddz_last_error(void);
DdzRules *ddz_rules_new(const char *profile, const char *laizi);
void ddz_rules_free(DdzRules *rules);
DdzGame *ddz_game_new(const DdzRules *rules, uint64_t seed);
void ddz_game_free(DdzGame *game);
int ddz_game_to_act(const DdzGame *game);
int64_t ddz_game_legal_actions(const DdzGame *game, char *buf, size_t len);
int ddz_game_act(DdzGame *game, const char *action);
int ddz_game_scores(const DdzGame *game, int64_t *out);
int64_t ddz_game_record_json(const DdzGame *game, char *buf, size_t len);
DdzBot *ddz_bot_new(const char *spec, const DdzRules *rules, uint64_t seed);
void ddz_bot_free(DdzBot *bot);
int64_t ddz_bot_act(DdzBot *bot, const DdzGame *game, char *buf, size_t len);
]]

local ddz = ffi.load("ddz_ffi")

local function last_error()
  local why = ddz.ddz_last_error()
  return why ~= nil and ffi.string(why) or "(no message)"
end

-- A text result by the two-call pattern: the length, then the text.
local function text(call)
  local needed = tonumber(call(nil, 0))
  if needed < 0 then error(last_error()) end
  local buf = ffi.new("char[?]", needed + 1)
  call(buf, needed + 1)
  return ffi.string(buf, needed)
end

local profile = arg[1] or "classic"
print("ddz " .. ffi.string(ddz.ddz_version()) .. ", " .. profile)
-- Handles are freed by the garbage collector through ffi.gc.
local rules = ffi.gc(ddz.ddz_rules_new(profile, nil), ddz.ddz_rules_free)
if rules == nil then error(last_error()) end
local game = ffi.gc(ddz.ddz_game_new(rules, 7), ddz.ddz_game_free)
local specs = { "ddzlib", "greedy", "greedy" }
local bots = {}
for seat = 0, 2 do
  bots[seat] = ffi.gc(ddz.ddz_bot_new(specs[seat + 1], rules, seat), ddz.ddz_bot_free)
end

local actions = 0
while true do
  local seat = ddz.ddz_game_to_act(game)
  if seat == -1 then break end
  local action = text(function(buf, len) return ddz.ddz_bot_act(bots[seat], game, buf, len) end)
  local legal = text(function(buf, len) return ddz.ddz_game_legal_actions(game, buf, len) end)
  local listed = false
  for line in legal:gmatch("[^\n]+") do
    if line == action then listed = true end
  end
  assert(listed, action .. " is not among the legal actions")
  assert(ddz.ddz_game_act(game, action) == 0, last_error())
  actions = actions + 1
end

local scores = ffi.new("int64_t[3]")
assert(ddz.ddz_game_scores(game, scores) == 0, last_error())
assert(tonumber(scores[0] + scores[1] + scores[2]) == 0, "zero-sum scores")
local record = text(function(buf, len) return ddz.ddz_game_record_json(game, buf, len) end)
assert(record:find('"result"'), "the record has the result")
print(string.format("%d actions, scores %d %d %d", actions,
  tonumber(scores[0]), tonumber(scores[1]), tonumber(scores[2])))

-- A finished game refuses a play, with a message.
local status = ddz.ddz_game_act(game, "3")
assert(status < -1, "an action after the end is refused")
print("refused as expected: " .. last_error())
