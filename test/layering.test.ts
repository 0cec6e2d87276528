import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/fixtures.js';

/*
 * The production code (services/, shared/) never imports the benchmarks (bench/): they are compiled apart
 * (bench/tsconfig.json, `npm run build:bench`) and stay out of the production build and the image. `tonflow bench`
 * loads them by a path computed at run time (services/tonflow.ts), which is not an import.
 */

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (/\.(ts|mts|cts|js|mjs)$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Module specifiers of static imports and exports, `import('...')` and `require('...')` with a literal. */
function specifiers(text: string): string[] {
  const out: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\b(?:import|require)\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g];
  for (const re of patterns) for (const m of text.matchAll(re)) out.push(m[1]!);
  return out;
}

/** True when `spec`, imported from `file`, resolves into the repository's bench/ folder. */
function intoBench(file: string, spec: string): boolean {
  const bench = path.join(repoRoot, 'bench') + path.sep;
  if (!spec.startsWith('.') && !spec.startsWith('/')) return false;
  return path.resolve(path.dirname(file), spec).startsWith(bench) || path.resolve(path.dirname(file), spec) === bench.slice(0, -1);
}

describe('layering: production code does not import the benchmarks', () => {
  it('no file under services/ or shared/ imports bench/', () => {
    const offenders: string[] = [];
    for (const top of ['services', 'shared']) {
      for (const file of sources(path.join(repoRoot, top))) {
        for (const spec of specifiers(readFileSync(file, 'utf8'))) {
          if (intoBench(file, spec)) offenders.push(`${path.relative(repoRoot, file)} imports ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('finds such an import where there is one (the check itself works)', () => {
    const file = path.join(repoRoot, 'services', 'x.ts');
    const specs = specifiers(`import { a } from '../bench/decode.js';\nconst m = await import('../bench/api.js');\nexport * from "../shared/y.js";`);
    expect(specs).toEqual(['../bench/decode.js', '../shared/y.js', '../bench/api.js']);
    expect(specs.filter((s) => intoBench(file, s))).toEqual(['../bench/decode.js', '../bench/api.js']);
  });

  it('the production build (tsconfig.json) does not include bench/', () => {
    const config = JSON.parse(readFileSync(path.join(repoRoot, 'tsconfig.json'), 'utf8')) as { include: string[] };
    expect(config.include.filter((p) => p.startsWith('bench') || p.startsWith('./bench'))).toEqual([]);
  });
});
