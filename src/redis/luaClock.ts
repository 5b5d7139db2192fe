/** Redis's clock in Lua, for the scripts that keep expiry-scored bookkeeping (sessions, answer pages). */

/** Defines `now_ms()`: Redis's time in ms since the epoch (`TIME`). */
export const NOW_MS = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;
