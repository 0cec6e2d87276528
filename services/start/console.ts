import type { LogLevel } from '../../shared/runtime/logger.js';

/**
 * The human console of `tonflow start`: on a terminal, one progress line redrawn in place (blocks and transactions
 * stored per second, how far the stored masterchain block is behind the newest one the follower published, the
 * API's URL) instead of a JSON line per event. Warnings and errors still print, as text, above the line. Machines
 * (stdout not a terminal, or TONFLOW_LOG_FORMAT=json) keep getting JSON log lines.
 */

export type LogFormat = 'auto' | 'json' | 'console';

/** The format in effect: `auto` is console on a terminal, JSON anywhere else. */
export function resolveLogFormat(format: LogFormat, isTTY: boolean | undefined): 'json' | 'console' {
  return format === 'auto' ? (isTTY === true ? 'console' : 'json') : format;
}

/**
 * The log level on the console: info lines are what the progress line stands for, so the console shows warnings
 * and worse, unless a more verbose level was asked for (debug, trace) or a quieter one (error, fatal, silent).
 */
export function consoleLogLevel(level: LogLevel): LogLevel {
  return level === 'info' ? 'warn' : level;
}

/** Totals at one instant (what the progress line is computed from). */
export interface ProgressSample {
  /** performance.now() or any monotonic milliseconds. */
  at: number;
  /** Blocks stored so far. */
  blocks: number;
  /** Transactions stored so far. */
  transactions: number;
  /** The newest masterchain block whose blocks are stored, null before the first. */
  storedMcSeqno: number | null;
  /** The newest masterchain block the follower published (the chain head as far as the source goes), null before the first. */
  headMcSeqno: number | null;
}

/** A rate for the eye: 1 decimal below 10, whole numbers with thousands separators above. */
export function formatRate(perSecond: number): string {
  if (!Number.isFinite(perSecond) || perSecond <= 0) return '0';
  return perSecond < 10 ? perSecond.toFixed(1) : Math.round(perSecond).toLocaleString('en-US');
}

/**
 * One progress line, e.g. `mc 46991999 · 12.5 blocks/s · 3,210 tx/s · lag 2 mc blocks · API http://localhost:8080/api/v3/`.
 * Rates are over the interval from `prev` to `now` (none before a second sample).
 */
export function formatProgress(prev: ProgressSample | undefined, now: ProgressSample, apiUrl: string | null): string {
  const parts: string[] = [];
  parts.push(now.storedMcSeqno === null ? 'waiting for the first masterchain block' : `mc ${now.storedMcSeqno}`);
  const seconds = prev === undefined ? 0 : (now.at - prev.at) / 1000;
  if (prev !== undefined && seconds > 0) {
    parts.push(`${formatRate((now.blocks - prev.blocks) / seconds)} blocks/s`);
    parts.push(`${formatRate((now.transactions - prev.transactions) / seconds)} tx/s`);
  }
  if (now.headMcSeqno !== null && now.storedMcSeqno !== null) {
    const lag = Math.max(0, now.headMcSeqno - now.storedMcSeqno);
    parts.push(lag === 0 ? 'at head' : `lag ${lag.toLocaleString('en-US')} mc block${lag === 1 ? '' : 's'}`);
  }
  if (apiUrl !== null) parts.push(`API ${apiUrl}`);
  return parts.join(' · ');
}

/** The URL clients use for the API listening on `host:port` (a wildcard address is reached as localhost). */
export function apiUrlOf(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}/api/v3/`;
}

/** Where the console writes: a terminal stream (`columns` bounds the line, so redrawing never wraps). */
export interface ConsoleOut {
  write(text: string): unknown;
  columns?: number;
}

export interface ProgressConsole {
  /** Log lines (pino's destination): printed above the progress line, which is redrawn after them. */
  readonly logStream: { write(line: string): void };
  /** Starts redrawing every `intervalMs`. */
  start(): void;
  /** Draws a last line and leaves it (with a newline). */
  stop(): void;
  /** Redraws now (also what the timer does). */
  draw(): void;
  apiUrl: string | null;
}

const CLEAR_LINE = '\r\x1b[2K';

export function createProgressConsole(opts: { out: ConsoleOut; sample: () => ProgressSample; intervalMs?: number; apiUrl?: string | null }): ProgressConsole {
  const out = opts.out;
  // Rates over the last few seconds: steadier than one interval, and still quick to follow a change.
  const window: ProgressSample[] = [];
  let line = '';
  let timer: NodeJS.Timeout | undefined;
  const fit = (s: string): string => {
    const max = out.columns !== undefined && out.columns > 1 ? out.columns - 1 : Infinity;
    return s.length > max ? s.slice(0, Math.max(0, max - 1)) + '…' : s;
  };
  const c: ProgressConsole = {
    apiUrl: opts.apiUrl ?? null,
    logStream: {
      write(text: string) {
        out.write(CLEAR_LINE + text + (text.endsWith('\n') ? '' : '\n'));
        if (line !== '') out.write(line);
      },
    },
    draw() {
      const now = opts.sample();
      window.push(now);
      while (window.length > 5) window.shift();
      line = fit(formatProgress(window.length > 1 ? window[0] : undefined, now, c.apiUrl));
      out.write(CLEAR_LINE + line);
    },
    start() {
      if (timer) return;
      c.draw();
      timer = setInterval(() => c.draw(), opts.intervalMs ?? 1000);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      c.draw();
      out.write('\n');
      line = '';
    },
  };
  return c;
}
