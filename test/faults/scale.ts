/** The fault suites' size: bounded for CI (`npm test`), or the issue's sizes with FAULTS_SCALE=full. */
export type FaultScale = "ci" | "full";
export function faultScale(): FaultScale {
  return process.env.FAULTS_SCALE === "full" ? "full" : "ci";
}
