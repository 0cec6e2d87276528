import { describe, expect, it } from 'vitest';
import { PARSE_SLICE_BYTES, parseJsonRows, splitFields } from './client.js';

/*
 * A read's output is parsed a slice at a time, the event loop getting turns between slices, so that a 4 MB answer
 * does not hold the thread that answers every other request. The rows must be those a one-shot parse of the whole
 * text gives: JSON.parse of each line of `new TextDecoder().decode(bytes)`, the reference here.
 */

/** Rows whose JSON lines hold 1-, 2-, 3- and 4-byte UTF-8 characters, so that slice ends fall between all kinds. */
function rows(n: number) {
  return Array.from({ length: n }, (_, i) => ({ i, lt: String(2n ** 63n - BigInt(i)), text: `é€😀 ${'x'.repeat(i % 97)} "q" \\ ${i}`, none: null }));
}

const jsonLines = (rs: readonly object[]): string => rs.map((r) => `${JSON.stringify(r)}\n`).join('');

/** Turns of the event loop other work gets while `work` runs (a chain of setImmediate, as any pending I/O would). */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ out: T; turns: number }> {
  let turns = 0;
  let running = true;
  const tick = (): void => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const out = await work();
  running = false;
  return { out, turns };
}

describe('parsing a read output in slices', () => {
  const expected = rows(6_000);
  const text = jsonLines(expected);
  const bytes = new TextEncoder().encode(text);

  it('large JSONEachRow output, as text and as bytes: the rows of a one-shot parse, with turns of the loop between slices', async () => {
    expect(bytes.length).toBeGreaterThan(4 * PARSE_SLICE_BYTES);
    for (const out of [text, bytes]) {
      const { out: parsed, turns } = await turnsDuring(() => parseJsonRows<ReturnType<typeof rows>[number]>(out));
      expect(parsed).toEqual(expected);
      // One turn between each two slices at least.
      expect(turns).toBeGreaterThanOrEqual(Math.floor(out.length / PARSE_SLICE_BYTES) - 1);
    }
  });

  it('a small output is parsed in one go', async () => {
    const small = rows(20);
    const { out, turns } = await turnsDuring(() => parseJsonRows(new TextEncoder().encode(jsonLines(small))));
    expect(out).toEqual(small);
    expect(turns).toBe(0);
  });

  it('bytes decode as a one-shot TextDecoder decodes them (a leading BOM dropped, broken sequences replaced)', async () => {
    // A stray continuation byte and a truncated 3-byte sequence before line breaks, deep inside the output.
    const broken = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text.slice(0, 300_000)), Buffer.from([0x61, 0x80, 0x0a, 0xe2, 0x82, 0x0a]), Buffer.from(text.slice(300_000))]);
    const reference = new TextDecoder().decode(broken).split('\n').slice(0, -1);
    const got = await splitFields(broken, 1, 'SELECT line');
    expect(got.map((f) => f[0])).toEqual(reference);
  });

  it('TabSeparatedRaw: fields of every line; a bad row in a later slice is refused', async () => {
    const tsv = expected.map((r) => `${r.lt}\t${JSON.stringify(r)}\n`).join('');
    const fields = await splitFields(tsv, 2, 'SELECT lt, doc');
    expect(fields).toEqual(expected.map((r) => [r.lt, JSON.stringify(r)]));
    const bad = `${tsv}1\t2\t3\n`;
    await expect(splitFields(bad, 2, 'SELECT lt, doc')).rejects.toMatchObject({ code: 'STORE_BAD_FIELDS' });
  });

  it('empty lines and an output without a final line break', async () => {
    const t = `${'a'.repeat(PARSE_SLICE_BYTES)}\n\nb\n${'c'.repeat(PARSE_SLICE_BYTES)}`;
    expect((await splitFields(t, 1, 'SELECT s')).map((f) => f[0])).toEqual(['a'.repeat(PARSE_SLICE_BYTES), '', 'b', 'c'.repeat(PARSE_SLICE_BYTES)]);
    expect(await parseJsonRows(new Uint8Array(0))).toEqual([]);
  });
});
