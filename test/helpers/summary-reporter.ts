import { writeFileSync } from 'node:fs';
import type { Reporter, RunnerTestFile, RunnerTask } from 'vitest/node';

/** Lines of one failure's error kept in the failures file: its message and the first frames of our code. */
const ERROR_LINES = 6;

/**
 * Prints one closing line `N passed, N failed, N skipped` after vitest's own summary: the plain form CI reads to
 * tell a run that executed tests from one that executed none.
 *
 * With `TONFLOW_TEST_FAILURES_FILE` set (by `.ci/run`), it also writes each failed test there — its file, its full
 * name and the head of its error — because CI shows only the tail of a run's output, and the Kafka and ClickHouse
 * log tails `.ci/run` prints after a failure would otherwise push vitest's own failure report out of it.
 */
export default class SummaryReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = []): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const failures: string[] = [];
    const describe = (file: string, name: string, errors: readonly { message?: string; stack?: string }[] | undefined): void => {
      const first = errors?.[0];
      const text = (first?.stack ?? first?.message ?? 'failed without an error').split('\n').filter((l) => !l.includes('node_modules')).slice(0, ERROR_LINES);
      failures.push(`FAIL ${file} > ${name}`, ...text.map((l) => `    ${l.slice(0, 300)}`));
    };
    const visit = (file: string, t: RunnerTask, path: string): void => {
      const name = path ? `${path} > ${t.name}` : t.name;
      if (t.type === 'suite') {
        for (const c of t.tasks) visit(file, c, name);
        // A failing hook fails the suite, not a test in it.
        if (t.result?.state === 'fail' && t.result.errors?.length) describe(file, `${name} (suite hook)`, t.result.errors);
        return;
      }
      if (t.mode === 'skip' || t.mode === 'todo') skipped++;
      else if (t.result?.state === 'pass') passed++;
      else if (t.result?.state === 'fail') {
        failed++;
        describe(file, name, t.result.errors);
      } else skipped++;
    };
    for (const f of files) {
      for (const t of f.tasks) visit(f.name, t, '');
      if (f.result?.state === 'fail' && (f.tasks.length === 0 || f.result.errors?.length)) {
        if (f.tasks.length === 0) failed++;
        describe(f.name, '(file)', f.result.errors);
      }
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    const out = process.env.TONFLOW_TEST_FAILURES_FILE;
    if (out) writeFileSync(out, failures.length ? `${failures.join('\n')}\n` : '');
  }
}
