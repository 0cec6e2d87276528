import { describe, expect, it } from 'vitest';
import { createProgressGate } from './stage.js';

describe('trace progress gate (embedded mode: the follower checkpoint waits for the traces)', () => {
  it('lets a wait through once its masterchain block is done, at once when it already is', async () => {
    const gate = createProgressGate(10);
    const order: string[] = [];
    await gate.wait(9).then(() => order.push('9'));
    await gate.wait(10).then(() => order.push('10'));
    const w12 = gate.wait(12).then(() => order.push('12'));
    const w11 = gate.wait(11).then(() => order.push('11'));
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual(['9', '10']);
    gate.reached(11);
    await w11;
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual(['9', '10', '11']);
    // A later block done counts for every earlier one (a masterchain block without a message of its own).
    gate.reached(14);
    await w12;
    expect(order).toEqual(['9', '10', '11', '12']);
  });

  it('lets every wait through when closed or when its signal aborts', async () => {
    const gate = createProgressGate(null);
    const ac = new AbortController();
    const aborted = gate.wait(5, ac.signal);
    ac.abort();
    await aborted;
    const closed = gate.wait(7);
    gate.close();
    await closed;
    await gate.wait(100);
  });
});
