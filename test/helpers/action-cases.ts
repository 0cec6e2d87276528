import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

/**
 * TON Center's action test-case format (indexer/tests/test_cases/*.yaml) and its harness's matching rules
 * (actions.md S.1): pick the produced actions of the case's type, narrow them with the `selector` Jinja condition
 * (first match), require exactly one, then compare every `values` path (dict: listed keys must exist; list:
 * same length, each expected item matching some actual item; `{{ … }}`: a condition; else equality, numbers by
 * value). Only `expected-actions` is checked: `expected-blocks` describe TON Center's internal blocks.
 */
export interface ExpectedAction {
  type: string;
  selector?: string;
  values?: Record<string, unknown>;
}

export interface ActionCase {
  name: string;
  traceId: string;
  expected: ExpectedAction[];
}

export function loadCases(file: string): ActionCase[] {
  const doc = parseYaml(readFileSync(file, 'utf8'), { intAsBigInt: true }) as { cases?: Record<string, any> | null };
  return Object.entries(doc.cases ?? {}).map(([name, c]) => ({ name, traceId: c['trace-id'], expected: c['expected-actions'] ?? [] }));
}

type Row = Record<string, unknown>;

function isNumeric(v: unknown): v is number | bigint {
  return typeof v === 'number' || typeof v === 'bigint';
}

/** Python-style equality for the values a row holds: numbers by value (49 == 49.0 == 49n), null == None. */
export function pyEquals(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (isNumeric(a) && isNumeric(b)) {
    if (typeof a === 'number' && !Number.isInteger(a)) return typeof b === 'number' && a === b;
    if (typeof b === 'number' && !Number.isInteger(b)) return typeof a === 'number' && a === b;
    return BigInt(a) === BigInt(b);
  }
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  if (isNumeric(a) || isNumeric(b)) return false;
  return a === b;
}

/** Reads `a.b[1].c` from a row (a missing attribute or key reads as null). */
export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const seg of path.split('.')) {
    const m = /^(.+?)\[(\d+)\]$/.exec(seg);
    const key = m ? m[1]! : seg;
    if (cur === null || typeof cur !== 'object') return null;
    cur = (cur as Row)[key];
    if (cur === undefined) return null;
    if (m) {
      if (!Array.isArray(cur) || cur.length <= Number(m[2])) return null;
      cur = cur[Number(m[2])];
    }
  }
  return cur ?? null;
}

/** Evaluates the Jinja subset the corpus uses: paths on `value`, literals, ==, !=, <, >, and, or, not, is None. */
export function evalCondition(expr: string, value: unknown): boolean {
  const src = expr.trim().replace(/^\{\{/, '').replace(/\}\}$/, '');
  const toks = src.match(/'[^']*'|"[^"]*"|0x[0-9a-fA-F]+|-?\d+(?:\.\d+)?|==|!=|<=|>=|<|>|\(|\)|[A-Za-z_][\w.\[\]]*/g) ?? [];
  let i = 0;
  const peek = (): string | undefined => toks[i];
  const primary = (): unknown => {
    const t = toks[i++];
    if (t === undefined) throw new Error(`bad selector ${expr}`);
    if (t === '(') {
      const v = orExpr();
      i++;
      return v;
    }
    if (t.startsWith("'") || t.startsWith('"')) return t.slice(1, -1);
    if (/^0x/i.test(t)) return BigInt(t);
    if (/^-?\d+$/.test(t)) return BigInt(t);
    if (/^-?\d+\.\d+$/.test(t)) return Number(t);
    if (t === 'None' || t === 'none') return null;
    if (t === 'True' || t === 'true') return true;
    if (t === 'False' || t === 'false') return false;
    if (t === 'value') return value;
    if (t.startsWith('value.')) return getPath(value, t.slice(6));
    throw new Error(`unsupported token ${t} in ${expr}`);
  };
  const cmp = (): unknown => {
    const a = primary();
    const op = peek();
    if (op === 'is') {
      i++;
      let neg = false;
      if (peek() === 'not') {
        neg = true;
        i++;
      }
      const b = primary();
      const r = pyEquals(a, b);
      return neg ? !r : r;
    }
    if (op === '==' || op === '!=' || op === '<' || op === '>' || op === '<=' || op === '>=') {
      i++;
      const b = primary();
      if (op === '==') return pyEquals(a, b);
      if (op === '!=') return !pyEquals(a, b);
      if (!isNumeric(a) || !isNumeric(b)) return false;
      const x = Number(a);
      const y = Number(b);
      return op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y;
    }
    return a;
  };
  const notExpr = (): unknown => {
    if (peek() === 'not') {
      i++;
      return !truthy(notExpr());
    }
    return cmp();
  };
  const andExpr = (): unknown => {
    let v = notExpr();
    while (peek() === 'and') {
      i++;
      const r = notExpr();
      v = truthy(v) && truthy(r);
    }
    return v;
  };
  const orExpr = (): unknown => {
    let v = andExpr();
    while (peek() === 'or') {
      i++;
      const r = andExpr();
      v = truthy(v) || truthy(r);
    }
    return v;
  };
  return truthy(orExpr());
}

function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'bigint') return v !== 0n;
  return Boolean(v);
}

function isCondition(v: unknown): v is string {
  return typeof v === 'string' && v.startsWith('{{') && v.endsWith('}}');
}

/** Compares one value; returns an error message or null. */
export function checkValue(actual: unknown, expected: unknown, path: string): string | null {
  if (isCondition(expected)) return evalCondition(expected, actual) ? null : `condition ${expected} failed at ${path}: ${show(actual)}`;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return `list length at ${path}: expected ${show(expected)}, got ${show(actual)}`;
    for (const e of expected) if (!actual.some((a) => checkValue(a, e, path) === null)) return `item ${show(e)} not found at ${path} in ${show(actual)}`;
    return null;
  }
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected) && actual !== null && typeof actual === 'object') {
    for (const [k, v] of Object.entries(expected)) {
      if (!(k in (actual as Row))) return `missing key ${k} at ${path}`;
      const err = checkValue((actual as Row)[k], v, `${path}.${k}`);
      if (err) return err;
    }
    return null;
  }
  return pyEquals(actual, expected) ? null : `${path}: expected ${show(expected)}, got ${show(actual)}`;
}

function show(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
}

/** Runs one case's expectations against the produced rows: the list of failures (empty when it passes). */
export function checkCase(c: ActionCase, rows: Row[]): string[] {
  const errors: string[] = [];
  for (const exp of c.expected) {
    let matching = rows.filter((r) => String(r.type).toLowerCase() === exp.type.toLowerCase());
    if (exp.selector && matching.length > 0) {
      const hit = matching.find((r) => evalCondition(exp.selector!, r));
      if (!hit) {
        errors.push(`${exp.type}: no action matched selector ${exp.selector}`);
        continue;
      }
      matching = [hit];
    }
    if (matching.length !== 1) {
      errors.push(`${exp.type}: expected 1 action, found ${matching.length} (types: ${rows.map((r) => r.type).join(', ')})`);
      continue;
    }
    for (const [p, v] of Object.entries(exp.values ?? {})) {
      const err = checkValue(getPath(matching[0], p), v, p);
      if (err) errors.push(`${exp.type}: ${err}`);
    }
  }
  return errors;
}
