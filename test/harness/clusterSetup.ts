import type { TestProject } from "vitest/node";
import { startOwnCluster } from "./ownCluster.js";

/**
 * vitest.cluster.config.ts's global setup: one three-master Redis Cluster of the suite's own for
 * the whole run, its seeds provided to the test files (test/harness/redisTopology.ts), removed
 * at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startOwnCluster({ masters: 3 });
  project.provide("redisClusterNodes", cluster.seeds);
  return () => cluster.stop();
}
