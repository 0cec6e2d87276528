import type { Reporter, RunnerTestFile, RunnerTask } from 'vitest/node';

/**
 * Prints one closing line `N passed, N failed, N skipped` after vitest's own summary: the plain form CI reads to
 * tell a run that executed tests from one that executed none.
 */
export default class SummaryReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = []): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const visit = (t: RunnerTask): void => {
      if (t.type === 'suite') {
        for (const c of t.tasks) visit(c);
        return;
      }
      if (t.mode === 'skip' || t.mode === 'todo') skipped++;
      else if (t.result?.state === 'pass') passed++;
      else if (t.result?.state === 'fail') failed++;
      else skipped++;
    };
    for (const f of files) {
      for (const t of f.tasks) visit(t);
      if (f.result?.state === 'fail' && f.tasks.length === 0) failed++;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
