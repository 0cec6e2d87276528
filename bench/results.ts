import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

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
