import { describe, it } from 'vitest';

/** An outside service a suite needs, found through the environment (see describeKafka, describeClickHouse). */
export interface Requirement<T> {
  /** What the suite needs, for the failing test's title: `a Kafka broker`. */
  what: string;
  /** The flag that turns a skip into a failure: `TONFLOW_REQUIRE_KAFKA`. */
  flag: string;
  /** Why it is missing and how to provide it. */
  missing: string;
  /** What the skip warning calls the suites: `Kafka integration tests`. */
  suites: string;
  value: T | undefined;
}

const warned = new Set<string>();

/**
 * `describe` for suites that need an outside service. With it the body runs and receives its value; without it the
 * suite is skipped with `missing` (one warning per kind), or, when `<flag>=1` (CI, where a skip would pass a broken
 * set-up as green), replaced by one failing test carrying that message.
 */
export function describeWith<T>(name: string, req: Requirement<T>, fn: (value: T) => void): void {
  const value = req.value;
  if (value !== undefined) {
    describe(name, () => fn(value));
    return;
  }
  if (process.env[req.flag] === '1') {
    describe(name, () => {
      it(`requires ${req.what} (${req.flag}=1)`, () => {
        throw new Error(`${req.missing}, and ${req.flag}=1 requires the ${req.suites} to run`);
      });
    });
    return;
  }
  if (!warned.has(req.flag)) {
    warned.add(req.flag);
    console.warn(`${req.missing}: ${req.suites} skipped (${req.flag}=1 fails them instead)`);
  }
  describe(name, () => {
    it.skip(`${req.missing}: skipped`, () => {});
  });
}
