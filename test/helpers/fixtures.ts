import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/**
 * Real mainnet fixtures live outside the repository, in the read-only `../shared/fixtures` folder next to it.
 * They are never copied into the repo: tests that need them use {@link describeFixtures}, which skips when the
 * folder is absent (a fresh clone) and fails instead when `TONFLOW_REQUIRE_FIXTURES=1` (CI that must run them).
 */

/** Root of the repository (this file is `<repo>/test/helpers/fixtures.ts`). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Absolute path of `../shared/fixtures`, resolved from the repository root. */
export const fixturesDir = path.resolve(repoRoot, '..', 'shared', 'fixtures');

export const haveFixtures: boolean = (() => {
  try {
    return statSync(fixturesDir).isDirectory();
  } catch {
    return false;
  }
})();

export const MISSING_FIXTURES_MESSAGE = '../shared/fixtures not found: fixture tests skipped';

/** True when the environment demands that fixture tests run (`TONFLOW_REQUIRE_FIXTURES=1`). */
export function fixturesRequired(): boolean {
  return process.env.TONFLOW_REQUIRE_FIXTURES === '1';
}

/**
 * `describe` for tests that read fixtures. Without the fixtures folder the suite is skipped with a clear message,
 * or, when `TONFLOW_REQUIRE_FIXTURES=1`, replaced by one failing test carrying that message.
 */
export function describeFixtures(name: string, fn: () => void): void {
  if (haveFixtures) {
    describe(name, fn);
    return;
  }
  if (fixturesRequired()) {
    describe(name, () => {
      it('requires ../shared/fixtures (TONFLOW_REQUIRE_FIXTURES=1)', () => {
        throw new Error(`${MISSING_FIXTURES_MESSAGE} (looked in ${fixturesDir}; TONFLOW_REQUIRE_FIXTURES=1 makes this an error)`);
      });
    });
    return;
  }
  // The suite body is not run at all: it may read fixtures while collecting.
  warnOnce();
  describe(name, () => {
    it.skip(MISSING_FIXTURES_MESSAGE, () => {});
  });
}

let warned = false;
function warnOnce(): void {
  if (warned) return;
  warned = true;
  console.warn(`${MISSING_FIXTURES_MESSAGE} (looked in ${fixturesDir}; set TONFLOW_REQUIRE_FIXTURES=1 to fail instead)`);
}

/** Absolute path of a fixture, `rel` being relative to the fixtures folder (e.g. `blocks/x.boc`). */
export function fixturePath(rel: string): string {
  return path.join(fixturesDir, rel);
}

export function fixtureExists(rel: string): boolean {
  return existsSync(fixturePath(rel));
}

/** Reads a fixture file, `rel` being relative to the fixtures folder (e.g. `blocks/x.boc`). */
export function readFixture(rel: string): Buffer {
  return readFileSync(fixturePath(rel));
}
