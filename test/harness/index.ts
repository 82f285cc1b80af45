export { freePort } from "./ports.js";
export { type WaitForOptions, waitFor } from "./waitFor.js";
