// Tests and benchmarks leave Redis as they found it with the one clean-up the product has.
export { deleteKeysMatching } from "../../src/redis/keys.js";
