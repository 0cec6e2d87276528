import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['services/**/*.test.ts', 'shared/**/*.test.ts', 'test/**/*.test.ts'],
    // Outer safety limits only (tests wait on events and conditions, test/helpers/patience.ts): one test or hook
    // that hangs ends here. Generous, so a run on a loaded machine at a third of its usual speed still passes.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
