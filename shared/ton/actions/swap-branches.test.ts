import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeFixtures, fixturesDir } from '../../../test/helpers/fixtures.js';
import { createClassifier, parseCorpusTrace } from './index.js';

/**
 * Swap branches TON Center's corpus cases do not reach, driven on its recorded traces with part of the recorded
 * interface table withheld (as when the indexer has not detected an account yet). The expected outcome is TON
 * Center's rule for the branch, stated with each test.
 */
const traces = path.join(fixturesDir, 'action-corpus', 'traces');

function classify(traceId: string, withheld: string[]) {
  const doc = JSON.parse(readFileSync(path.join(traces, `${traceId}.json`), 'utf8'));
  for (const a of withheld) delete doc.interfaces[a];
  const { trace, repo } = parseCorpusTrace(doc);
  return createClassifier(repo).classify(trace);
}

describeFixtures('STON.fi v2 swap with an unknown hop wallet', () => {
  // "Stonfi v2 Jetton -> Jetton multirouter" (stonfi-v2-swaps.yaml): 0:3690… → 0:B113… on router A, then
  // 0:B113… → 0:AE3E… on router B, whose output wallet 0:CBE8… is withheld here.
  const TRACE = '00BTqIs6w2qgKXyjfUIwS1WMPbYzWvOn0P16eku_O-4=';
  const HOP2_WALLET = '0:CBE8EB5022D36DD20F014C2F2C8F76DB1B7BD0D062158F7072C07F34ED5A3223';
  const IN_ASSET = '0:3690254DC15B2297610CDA60744A45F2B710AA4234B89ADB630E99D79B01BD4F';
  const MID_ASSET = '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE';
  const OUT_ASSET = '0:AE3E6D351E576276E439E7168117FD64696FD6014CB90C77B2F2CBAACD4FCC00';

  it('does not report the unknown wallet as TON: the multi-hop swap is not built', () => {
    // TON Center looks each hop's output up in its map of known pool wallets and gives up on the swap when it is
    // missing; the second hop alone is still a (single-hop) swap, and the user's transfer stays a transfer.
    const rows = classify(TRACE, [HOP2_WALLET]);
    const swaps = rows.filter((r) => r.type === 'jetton_swap');
    expect(swaps).toHaveLength(1);
    const d = swaps[0]!.jetton_swap_data as Record<string, any>;
    expect(d.dex).toBe('stonfi_v2');
    expect(d.peer_swaps).toEqual([]);
    expect(swaps[0]!.asset).toBe(MID_ASSET);
    expect(swaps[0]!.asset2).toBe(OUT_ASSET);
    const transfers = rows.filter((r) => r.type === 'jetton_transfer' && r.asset === IN_ASSET);
    expect(transfers).toHaveLength(1);
  });

  it('with every wallet known, it is one two-hop swap', () => {
    const swaps = classify(TRACE, []).filter((r) => r.type === 'jetton_swap');
    expect(swaps).toHaveLength(1);
    const peers = (swaps[0]!.jetton_swap_data as Record<string, any>).peer_swaps as Record<string, unknown>[];
    expect(peers.map((p) => [p.asset_in, p.asset_out])).toEqual([
      [IN_ASSET, MID_ASSET],
      [MID_ASSET, OUT_ASSET],
    ]);
  });
});
