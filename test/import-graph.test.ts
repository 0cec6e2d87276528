import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The import graph of the source the build compiles (services/ and shared/, test files excluded): no import cycles,
 * type-only imports included (a type cycle still ties two modules into one unit that cannot be read, tested or
 * moved apart), and no import into bench/ or test/ (production code must not depend on measurement or test code).
 * Test files may import test helpers, and are left out.
 */

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
const SOURCE_DIRS = ['services', 'shared'];
const FORBIDDEN_DIRS = ['bench', 'test'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Relative specifiers of every import, re-export, `import type` and dynamic import, resolved to .ts paths. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const out: string[] = [];
  for (const ref of info.importedFiles) {
    if (!ref.fileName.startsWith('.')) continue;
    out.push(path.resolve(path.dirname(file), ref.fileName).replace(/\.js$/, '.ts'));
  }
  return out;
}

/** Strongly connected components with more than one module, or a module importing itself (Tarjan). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

const rel = (p: string): string => path.relative(ROOT, p);

describe('import graph of services/ and shared/', () => {
  const files = SOURCE_DIRS.flatMap((d) => sourceFiles(path.join(ROOT, d)));
  const graph = new Map(files.map((f) => [f, importsOf(f)]));

  it('reads the source tree (the walk sees the modules and their imports)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get(path.join(ROOT, 'services/gateway/app.ts'))).toContain(path.join(ROOT, 'services/gateway/errors.ts'));
  });

  it('has no import cycle, type-only imports included', () => {
    expect(cycles(graph).map((c) => c.map(rel))).toEqual([]);
  });

  it('imports nothing from bench/ or test/', () => {
    const bad: string[] = [];
    for (const [file, deps] of graph) {
      for (const d of deps) {
        const top = rel(d).split(path.sep)[0];
        if (top !== undefined && FORBIDDEN_DIRS.includes(top)) bad.push(`${rel(file)} -> ${rel(d)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['d']],
      ['e', ['a']],
    ]);
    expect(cycles(g)).toEqual([['a', 'b', 'c'], ['d']]);
  });
});
