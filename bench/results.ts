import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baselineDecode } from './baseline-toncore.js';

/** A description of this machine for RESULTS.md: figures mean little without it. */
export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`;
}

/**
 * Replaces (or appends) the section of `bench/RESULTS.md` between `<!-- bench:NAME -->` and
 * `<!-- /bench:NAME -->`, so every benchmark keeps its latest figures without touching the others.
 */
export function writeResultsSection(file: string, name: string, body: string): void {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n\nWritten by `npm run bench -- <name>`; each section holds the latest run.\n';
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i >= 0 && j > i) text = text.slice(0, i) + section + text.slice(j + end.length);
  else text = `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, text);
}

/**
 * How fast this machine is right now, in a unit every benchmark shares: the decode benchmark's @ton/core baseline
 * (`Cell.fromBoc` + `loadTransaction` over the fixture blocks, one thread), run for `seconds`. This VM's speed moves
 * by 2-3x between hours (other tenants), so a figure from another day is comparable only through this reference.
 */
export function speedReference(fixturesDir: string, seconds = 3): number {
  const files = readdirSync(fixturesDir)
    .filter((f) => f.endsWith('.boc'))
    .sort()
    .map((f) => readFileSync(path.join(fixturesDir, f)));
  let tx = 0;
  const t0 = performance.now();
  do for (const f of files) tx += baselineDecode(f);
  while (performance.now() - t0 < seconds * 1000);
  return Math.round(tx / ((performance.now() - t0) / 1000));
}

/** The RESULTS.md line for {@link speedReference} readings taken before and after a run. */
export function speedLine(before: number, after: number): string {
  return (
    `Machine speed: @ton/core baseline (the decode benchmark's) at ${before} tx/s before the run and ${after} after ` +
    `(${REFERENCE_DAY}: ${REFERENCE_TX_PER_S}); scale figures from other days by the ratio.`
  );
}

/** The reference reading of the day the README's earlier figures were taken (bench/RESULTS.md history). */
const REFERENCE_DAY = '2026-11-22';
export const REFERENCE_TX_PER_S = 1259;
