import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * `npm run test:cluster`: a representative set of the end-to-end flows, unchanged, on a
 * three-master Redis Cluster the suite starts (test/harness/clusterSetup.ts) instead of the
 * shared Redis — the harness (test/harness/botEnv.ts) gives the bot REDIS_CLUSTER_NODES.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: [
      "test/cluster/**/*.test.ts",
      // A port order submitted, approved by a signed click, placed once; a rejection.
      "test/e2e/portOrder.test.ts",
      "test/e2e/approvals.test.ts",
      // A layer 2 order; tracking to the end; the name reservation under concurrency.
      "test/e2e/layer2.test.ts",
      "test/e2e/tracking.test.ts",
      "test/e2e/nameReservation.test.ts",
    ],
    globalSetup: ["test/harness/clusterSetup.ts"],
  },
});
