import { describe, expect, it } from 'vitest';
import { goDuration, serverTiming } from './server-timing.js';

describe('Server-Timing as Go prints a time.Duration', () => {
  // Expected strings are Go's documented Duration.String outputs (pkg.go.dev/time#Duration.String examples and
  // the rules of its fmtFrac: no trailing zeros, unit by magnitude).
  it.each([
    [0, '0s'],
    [1, '1ns'],
    [999, '999ns'],
    [1_100, '1.1µs'],
    [2_200_000, '2.2ms'],
    [1_234_567, '1.234567ms'],
    [1_000_000, '1ms'],
    [3_300_000_000, '3.3s'],
    [60_000_000_000, '1m0s'],
    [(4 * 60 + 5) * 1e9 + 1, '4m5.000000001s'],
    [(5 * 3600 + 6 * 60 + 7.001) * 1e9, '5h6m7.001s'],
    [3600e9, '1h0m0s'],
  ])('%d ns → %s', (ns, text) => {
    expect(goDuration(ns)).toBe(text);
  });

  it('sends the micro sign as Go does, in UTF-8', () => {
    const header = serverTiming(0.0125);
    expect(Buffer.from(header, 'latin1').toString('utf8')).toBe('app;dur=12.5µs');
    expect(serverTiming(1.5)).toBe('app;dur=1.5ms');
  });
});
