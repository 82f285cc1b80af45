export { type OwnRedis, startOwnRedis } from "./ownRedis.js";
export { freePort } from "./ports.js";
export { type WaitForOptions, waitFor } from "./waitFor.js";
