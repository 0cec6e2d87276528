import { describe, expect, it } from 'vitest';
import { ConfigError, UpstreamUnavailableError } from './errors.js';
import { createLogger, type LogLevel } from './logger.js';

/** A destination that keeps what pino writes. */
function capture(): { write(line: string): void; lines: string[]; entries(): Record<string, unknown>[] } {
  const lines: string[] = [];
  return {
    lines,
    write: (chunk: string) => void lines.push(...chunk.split('\n').filter((l) => l !== '')),
    entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const logger = (level: LogLevel = 'info', pretty = false) => {
  const out = capture();
  return { out, log: createLogger({ service: 'indexer', level, pretty, destination: out }) };
};

describe('createLogger', () => {
  it('writes one JSON object per line with service, level name, ISO time and a constant msg', () => {
    const { out, log } = logger();
    log.info({ seqno: 42, hash: 'a1b2' }, 'block decoded');
    const [entry] = out.entries();
    expect(entry).toMatchObject({ level: 'info', service: 'indexer', msg: 'block decoded', seqno: 42, hash: 'a1b2' });
    expect(entry!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(entry!.pid).toBe(process.pid);
  });

  it('tags child loggers with their module', () => {
    const { out, log } = logger();
    log.child({ module: 'decode' }).warn({ partition: 3 }, 'slow batch');
    expect(out.entries()[0]).toMatchObject({ service: 'indexer', module: 'decode', level: 'warn', partition: 3 });
  });

  it('serializes errors under err with code, retryable and the cause chain', () => {
    const { out, log } = logger();
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9092'), { code: 'ECONNREFUSED' });
    log.error({ err: new UpstreamUnavailableError('KAFKA_UNAVAILABLE', 'broker unreachable', { cause }) }, 'publish failed');
    const { err } = out.entries()[0] as { err: Record<string, unknown> };
    expect(err).toMatchObject({
      type: 'UpstreamUnavailableError',
      message: 'broker unreachable',
      code: 'KAFKA_UNAVAILABLE',
      retryable: true,
      cause: { type: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:9092', code: 'ECONNREFUSED' },
    });
    expect(err.stack).toContain('UpstreamUnavailableError: broker unreachable');
  });

  it('keeps ConfigError issues as a list', () => {
    const { out, log } = logger();
    log.fatal({ err: new ConfigError(['A: bad', 'B: bad']) }, 'invalid configuration');
    expect(out.entries()[0]).toMatchObject({ level: 'fatal', err: { code: 'CONFIG_INVALID', issues: ['A: bad', 'B: bad'] } });
  });

  it('drops lines below the level', () => {
    const { out, log } = logger('warn');
    log.info('not written');
    log.debug('not written');
    log.warn('written');
    expect(out.entries().map((e) => e.msg)).toEqual(['written']);
    const silent = logger('silent');
    silent.log.fatal('not written');
    expect(silent.out.lines).toEqual([]);
  });

  it('redacts passwords in logged objects', () => {
    const { out, log } = logger();
    log.info({ config: { clickhousePassword: 'hunter2', port: 8080 }, password: 'x' }, 'configuration loaded');
    const line = out.lines[0]!;
    expect(line).not.toContain('hunter2');
    expect(out.entries()[0]).toMatchObject({ config: { clickhousePassword: '[redacted]', port: 8080 }, password: '[redacted]' });
  });

  it('prints readable lines when pretty', async () => {
    const { out, log } = logger('info', true);
    log.child({ module: 'decode' }).info({ seqno: 42 }, 'block decoded');
    log.error({ err: new Error('boom') }, 'flush failed');
    // The pretty stream is a Writable: let it process the chunks.
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  indexer\/decode block decoded seqno=42$/);
    expect(out.lines[1]).toMatch(/ERROR indexer flush failed$/);
    expect(out.lines[2]).toBe('  Error: boom');
  });
});
