import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Every message the Slack stand-in records shows its fallback text's words in its blocks.
    setupFiles: ["test/support/fallbackTextSetup.ts"],
    reporters: ["default", "./test/support/summaryReporter.ts"],
    // Integration tests start real HTTP servers and talk to a real Redis; give them room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
