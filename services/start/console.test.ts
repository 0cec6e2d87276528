import { describe, expect, it } from 'vitest';
import { createLogger } from '../../shared/runtime/logger.js';
import { apiUrlOf, consoleLogLevel, createProgressConsole, formatProgress, formatRate, resolveLogFormat, type ProgressSample } from './console.js';

const at = (ms: number, blocks: number, transactions: number, storedMcSeqno: number | null, headMcSeqno: number | null): ProgressSample => ({
  at: ms,
  blocks,
  transactions,
  storedMcSeqno,
  headMcSeqno,
});

describe('console format', () => {
  it('is console on a terminal and JSON elsewhere under auto; an explicit format wins', () => {
    expect(resolveLogFormat('auto', true)).toBe('console');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('auto', undefined)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('console', false)).toBe('console');
  });

  it('shows warnings and worse instead of info lines, keeps any other level', () => {
    expect(consoleLogLevel('info')).toBe('warn');
    expect(consoleLogLevel('debug')).toBe('debug');
    expect(consoleLogLevel('error')).toBe('error');
  });
});

describe('progress line', () => {
  it('rates over the interval, the lag behind the newest published masterchain block, the API URL', () => {
    // 19 blocks and 6,420 transactions in 2 s; stored mc 46991999, the follower is at 46992001.
    const line = formatProgress(at(1000, 100, 1000, 46991990, 46991995), at(3000, 119, 7420, 46991999, 46992001), 'http://localhost:8080/api/v3/');
    expect(line).toBe('mc 46991999 · 9.5 blocks/s · 3,210 tx/s · lag 2 mc blocks · API http://localhost:8080/api/v3/');
  });

  it('says "at head" with no lag, one block in the singular, and has no rates before a second sample', () => {
    expect(formatProgress(undefined, at(0, 0, 0, 7, 7), null)).toBe('mc 7 · at head');
    expect(formatProgress(at(0, 0, 0, 6, 8), at(500, 1, 3, 7, 8), null)).toBe('mc 7 · 2.0 blocks/s · 6.0 tx/s · lag 1 mc block');
    expect(formatProgress(undefined, at(0, 0, 0, null, null), 'http://h:1/api/v3/')).toBe('waiting for the first masterchain block · API http://h:1/api/v3/');
  });

  it('rounds rates for the eye', () => {
    expect(formatRate(0)).toBe('0');
    expect(formatRate(-3)).toBe('0');
    expect(formatRate(9.94)).toBe('9.9');
    expect(formatRate(10.4)).toBe('10');
    expect(formatRate(15236.6)).toBe('15,237');
  });

  it('names the API by localhost when it listens on every address', () => {
    expect(apiUrlOf('0.0.0.0', 8080)).toBe('http://localhost:8080/api/v3/');
    expect(apiUrlOf('::', 8081)).toBe('http://localhost:8081/api/v3/');
    expect(apiUrlOf('127.0.0.1', 9000)).toBe('http://127.0.0.1:9000/api/v3/');
    expect(apiUrlOf('::1', 9000)).toBe('http://[::1]:9000/api/v3/');
  });
});

describe('progress console', () => {
  it('redraws one line in place, prints log lines above it as text, and leaves the last line on stop', () => {
    let written = '';
    let s = at(0, 0, 0, null, null);
    const c = createProgressConsole({ out: { write: (t: string) => (written += t), columns: 200 }, sample: () => s, apiUrl: 'http://localhost:8080/api/v3/' });
    c.draw();
    s = at(1000, 4, 40, 10, 12);
    c.draw();
    const logger = createLogger({ service: 'tonflow', level: 'warn', pretty: true, destination: c.logStream });
    logger.info({ n: 1 }, 'not shown');
    logger.warn({ partition: 3 }, 'slow insert');
    c.stop();
    // Each redraw clears the line first (\r, ESC[2K); the log line replaces the progress line, which is drawn again.
    const frames = written.split('\r\x1b[2K').filter((f) => f !== '');
    expect(frames[0]).toBe('waiting for the first masterchain block · API http://localhost:8080/api/v3/');
    expect(frames[1]).toBe('mc 10 · 4.0 blocks/s · 40 tx/s · lag 2 mc blocks · API http://localhost:8080/api/v3/');
    expect(frames[2]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} WARN  tonflow slow insert partition=3\n/);
    expect(frames[2]!.endsWith('mc 10 · 4.0 blocks/s · 40 tx/s · lag 2 mc blocks · API http://localhost:8080/api/v3/')).toBe(true);
    expect(written).not.toContain('not shown');
    expect(written).not.toContain('{"level"');
    expect(written.endsWith('\n')).toBe(true);
  });

  it('cuts the line to the terminal width so that a redraw never wraps', () => {
    let written = '';
    const c = createProgressConsole({ out: { write: (t: string) => (written += t), columns: 20 }, sample: () => at(0, 0, 0, 123456789, 123456789), apiUrl: 'http://localhost:8080/api/v3/' });
    c.draw();
    const frame = written.split('\r\x1b[2K').at(-1)!;
    expect(frame.length).toBeLessThanOrEqual(19);
    expect(frame.startsWith('mc 123456789 · at ')).toBe(true);
  });
});
