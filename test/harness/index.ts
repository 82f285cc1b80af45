export { type OwnRedis, startOwnRedis } from "./ownRedis.js";
export { freePort } from "./ports.js";
export {
  type WaitForOptions,
  type WaitWhileProgressingOptions,
  waitFor,
  waitWhileProgressing,
  within,
} from "./waitFor.js";
