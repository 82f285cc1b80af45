import type { Redis } from "ioredis";

/**
 * The store's compare-and-set steps, as Lua scripts registered with ioredis `defineCommand`.
 *
 * Why Lua and not WATCH/MULTI: a script runs on the Redis server as one atomic step, so "read
 * the status, check it, write the new status, history, index entries and TTL" cannot interleave
 * with another replica's step, and it costs one round trip. WATCH/MULTI gives the same safety
 * only with an optimistic retry loop on the client: 20 approvers clicking at once would make 19
 * transactions abort and re-read, and every caller needs that loop right. `defineCommand` sends
 * EVALSHA and falls back to EVAL on NOSCRIPT, so a Redis restart (which empties the script cache)
 * needs no handling here.
 *
 * The scripts never parse JSON: the provider call body must reach the provider byte for byte,
 * and Redis' cjson would turn `[]` into `{}` and round large numbers. JSON values are built in
 * TypeScript and stored as opaque hash fields; history is one JSON object per line, appended by
 * string concatenation.
 *
 * Every key a script touches is passed in KEYS (no key names built in Lua). On Redis Cluster the
 * store's prefix would need a hash tag (e.g. `{connect}:`) to keep them in one slot.
 */

/**
 * KEYS: record, created index, expiry index, one index per status (pending first), then the
 *       name key when the request has a name.
 * ARGV: id, createdMs, expiresAtMs, ttlMs, nowMs, trimLimit, statusCount, field/value pairs...
 * Returns {'created'}, {'id-taken'} or {'name-taken', holderId} (nothing written for either).
 * The name key holds the id of the request holding the name, with the record's TTL.
 */
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return {'id-taken'} end
local lastIndex = 3 + tonumber(ARGV[7])
local name = KEYS[lastIndex + 1]
if name then
  local holder = redis.call('GET', name)
  if holder then return {'name-taken', holder} end
end
local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[5], 'LIMIT', 0, tonumber(ARGV[6]))
for _, old in ipairs(expired) do
  for i = 2, lastIndex do redis.call('ZREM', KEYS[i], old) end
end
redis.call('HSET', KEYS[1], unpack(ARGV, 8))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
if name then redis.call('SET', name, ARGV[1], 'PX', ARGV[4]) end
return {'created'}
`;

/**
 * KEYS: record, created index, expiry index, index of the from-status, index of the to-status,
 *       then the name key when the request has a name.
 * ARGV: id, from, to, updatedAt, nowMs, expiresAtMs, ttlMs, historyLine, incrementAttempts
 *       ('1' or '0'), expectedAttempts ('' = any), nameRule, number of pairs n, n field/value
 *       pairs, then fields to delete.
 * nameRule: 'keep' (hold the name for the record's TTL; a record from before names were reserved
 * takes it if it is free), 'reserve' (the same, but refused when another request holds it) or
 * 'release' (delete it, only if this request holds it).
 * Returns {'ok', fields} | {'refused', fields} | {'stale', fields} |
 *         {'name-taken', fields, holderId} | {'missing'}.
 */
const TRANSITION = `
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'missing'} end
if status ~= ARGV[2] then return {'refused', redis.call('HGETALL', KEYS[1])} end
if ARGV[10] ~= '' and redis.call('HGET', KEYS[1], 'attempts') ~= ARGV[10] then
  return {'stale', redis.call('HGETALL', KEYS[1])}
end
local name, rule = KEYS[6], ARGV[11]
local holder = false
if name then holder = redis.call('GET', name) end
if rule == 'reserve' and holder and holder ~= ARGV[1] then
  return {'name-taken', redis.call('HGETALL', KEYS[1]), holder}
end
local n = tonumber(ARGV[12])
if n > 0 then redis.call('HSET', KEYS[1], unpack(ARGV, 13, 12 + 2 * n)) end
for i = 13 + 2 * n, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
if ARGV[9] == '1' then redis.call('HINCRBY', KEYS[1], 'attempts', 1) end
local history = redis.call('HGET', KEYS[1], 'history')
if history and history ~= '' then history = history .. '\\n' .. ARGV[8] else history = ARGV[8] end
redis.call('HSET', KEYS[1], 'status', ARGV[3], 'updatedAt', ARGV[4], 'history', history)
redis.call('PEXPIRE', KEYS[1], ARGV[7])
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[1])
local created = redis.call('ZSCORE', KEYS[2], ARGV[1]) or ARGV[5]
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('ZADD', KEYS[5], created, ARGV[1])
if name then
  if rule == 'release' then
    if holder == ARGV[1] then redis.call('DEL', name) end
  elseif not holder or holder == ARGV[1] then
    redis.call('SET', name, ARGV[1], 'PX', ARGV[7])
  end
end
return {'ok', redis.call('HGETALL', KEYS[1])}
`;

/**
 * One approver's approval of a pending request that may need several distinct approvers.
 * KEYS: record, created index, expiry index, pending index, approved index, then the name key
 *       when the request has a name.
 * ARGV: id, updatedAt, nowMs, expiresAtMs, ttlMs, approverField ('approvedBy.<user id>'),
 *       approverValue (JSON), inGroup ('1' when the approver is in the requirement's
 *       atLeastOneFrom group), required (distinct approvals), needsGroup ('1' when the
 *       requirement has an atLeastOneFrom group), partialHistoryLine, finalHistoryLine,
 *       decisionJson.
 * The approval that reaches `required` moves pending → approved (decision, status indexes, name
 * kept), so of any number of concurrent clicks exactly one makes it approved. With one
 * approval required nothing per approver is stored (the layout of a single approval is as it
 * was before policies). The same person approving twice counts once ('duplicate'); the last
 * approval is refused ('group-required') while none came from the atLeastOneFrom group.
 * Returns {'ok', fields} | {'refused', fields} | {'duplicate', fields} |
 *         {'group-required', fields} | {'missing'}.
 */
const APPROVE = `
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'missing'} end
if status ~= 'pending' then return {'refused', redis.call('HGETALL', KEYS[1])} end
if redis.call('HEXISTS', KEYS[1], ARGV[6]) == 1 then
  return {'duplicate', redis.call('HGETALL', KEYS[1])}
end
local required = tonumber(ARGV[9])
local count = 0
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, 11) == 'approvedBy.' then count = count + 1 end
end
local met = ARGV[8] == '1' or redis.call('HGET', KEYS[1], 'groupApproved') == '1'
local final = count + 1 >= required
if final and ARGV[10] == '1' and not met then
  return {'group-required', redis.call('HGETALL', KEYS[1])}
end
if required > 1 then redis.call('HSET', KEYS[1], ARGV[6], ARGV[7]) end
if ARGV[8] == '1' and required > 1 then redis.call('HSET', KEYS[1], 'groupApproved', '1') end
local line = ARGV[11]
if final then line = ARGV[12] end
local history = redis.call('HGET', KEYS[1], 'history')
if history and history ~= '' then history = history .. '\\n' .. line else history = line end
redis.call('HSET', KEYS[1], 'history', history)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
if final then
  redis.call('HSET', KEYS[1], 'status', 'approved', 'updatedAt', ARGV[2], 'decision', ARGV[13])
  local created = redis.call('ZSCORE', KEYS[2], ARGV[1]) or ARGV[3]
  redis.call('ZREM', KEYS[4], ARGV[1])
  redis.call('ZADD', KEYS[5], created, ARGV[1])
end
local name = KEYS[6]
if name then
  local holder = redis.call('GET', name)
  if not holder or holder == ARGV[1] then redis.call('SET', name, ARGV[1], 'PX', ARGV[5]) end
end
return {'ok', redis.call('HGETALL', KEYS[1])}
`;

/**
 * KEYS: record, expiry index. ARGV: id, expiresAtMs, ttlMs, field/value pairs...
 * Not a state transition: no history, and updatedAt keeps meaning "last status change".
 * Returns the record's fields, or nil when there is no such record.
 */
const MERGE_FIELDS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return redis.call('HGETALL', KEYS[1])
`;

/**
 * MERGE_FIELDS unless the record has the field ARGV[4] already (then nothing is written): the
 * first writer of where a request's approval message is wins, later ones see the kept place.
 */
const MERGE_FIELDS_UNLESS_SET = `
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
if redis.call('HEXISTS', KEYS[1], ARGV[4]) == 0 then
  redis.call('HSET', KEYS[1], unpack(ARGV, 5))
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
end
return redis.call('HGETALL', KEYS[1])
`;

type ScriptCall = (...keysThenArgs: (string | number)[]) => Promise<unknown>;

export interface ApprovalScripts {
  create(keys: string[], args: (string | number)[]): Promise<unknown>;
  transition(keys: string[], args: (string | number)[]): Promise<unknown>;
  approve(keys: string[], args: (string | number)[]): Promise<unknown>;
  mergeFields(keys: string[], args: (string | number)[]): Promise<unknown>;
  mergeFieldsUnlessSet(keys: string[], args: (string | number)[]): Promise<unknown>;
}

/**
 * Registers the scripts on a connection (idempotent: redefining replaces the same script).
 * Names are versioned so a future change cannot collide with an older definition.
 */
export function registerScripts(redis: Redis): ApprovalScripts {
  // No fixed number of keys: a request without a name passes one key fewer (the count is sent
  // with each call), so no placeholder key is ever named.
  const define = (name: string, lua: string) => {
    redis.defineCommand(name, { lua });
    // defineCommand adds a method ioredis' types cannot know about; this is its only use.
    const call = (redis as unknown as Record<string, ScriptCall>)[name];
    if (typeof call !== "function") throw new Error(`ioredis did not define ${name}`);
    return (keys: string[], args: (string | number)[]) =>
      call.call(redis, keys.length, ...keys, ...args);
  };
  return {
    create: define("approvalsCreateV2", CREATE),
    transition: define("approvalsTransitionV2", TRANSITION),
    approve: define("approvalsApproveV1", APPROVE),
    mergeFields: define("approvalsMergeFieldsV1", MERGE_FIELDS),
    mergeFieldsUnlessSet: define("approvalsMergeFieldsUnlessSetV1", MERGE_FIELDS_UNLESS_SET),
  };
}
