import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints the closing line CI reads ("N passed, N failed"), counted from vitest's own results.
 * A test file that fails to load has no tests but is a failure, so it counts as one failed.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const testModule of testModules) {
      let tests = 0;
      for (const test of testModule.children.allTests()) {
        tests += 1;
        const state = test.result().state;
        if (state === "passed") passed += 1;
        else if (state === "failed") failed += 1;
        else skipped += 1;
      }
      if (tests === 0 && testModule.state() === "failed") failed += 1;
    }
    process.stdout.write(
      `\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}\n`,
    );
  }
}
