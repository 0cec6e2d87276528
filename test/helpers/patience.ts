/**
 * How long a test may wait for something before it is declared hung. Tests wait on events and conditions (a
 * delivery, a row count, a log line); these limits only end a wait that would otherwise never end, so they are
 * generous: a machine running at a third of its usual speed, shared with other work, still passes.
 */

/** How much slower than a quiet developer machine a run may be before a wait counts as hung. */
export const SLOWDOWN = 5;

/** The outer safety limit for a wait that takes up to `ms` on a quiet machine. */
export function patience(ms: number): number {
  return ms * SLOWDOWN;
}
