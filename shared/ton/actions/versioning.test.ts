import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFixtures, fixturesDir } from '../../../test/helpers/fixtures.js';
import { createClassifier, parseCorpusTrace } from './index.js';
import { actionsForClient, expandActionTypes } from './versioning.js';

/*
 * Shortcut sizes as actions.md states them (v1 23 types; v2 adds 23; v3 adds 17; v4 adds 12, 75 in all), and the
 * parent/child visibility rule on a real EVAA jetton supply (evaa.yaml "Jetton supply": an evaa_supply whose
 * jetton_transfer is a child row).
 */
describe('supported_action_types', () => {
  it('expands the version shortcuts to the documented sizes, always including v1', () => {
    expect(expandActionTypes(['v1']).size).toBe(23);
    expect(expandActionTypes(['v2']).size).toBe(46);
    expect(expandActionTypes(['v3']).size).toBe(63);
    expect(expandActionTypes(['v4']).size).toBe(75);
    expect(expandActionTypes(['latest'])).toEqual(expandActionTypes(['v4']));
    expect(expandActionTypes([]).size).toBe(23);
    expect(expandActionTypes(['tgbtc']).has('tgbtc_mint_fallback')).toBe(true);
    expect(expandActionTypes(['nft.v3']).has('auction_bid')).toBe(true);
  });
});

describeFixtures('supported_action_types on a classified trace', () => {
  it('a v1 client sees the jetton_transfer child of an evaa_supply; a v2 client sees the evaa_supply only', () => {
    const file = path.join(fixturesDir, 'action-corpus', 'traces', 'j-5yrT2HRDFd7Eu9tmXI1IPjZa2VOnfL9vyKVeE18GM=.json');
    const { trace, repo } = parseCorpusTrace(JSON.parse(readFileSync(file, 'utf8')));
    const rows = createClassifier(repo).classify(trace);
    const supply = rows.find((r) => r.type === 'evaa_supply')!;
    expect(supply).toBeDefined();
    const child = rows.find((r) => r.parent_action_id === supply.action_id && r.type === 'jetton_transfer');
    expect(child?.ancestor_type).toEqual(['evaa_supply']);
    const v1 = actionsForClient(rows, expandActionTypes(['v1'])).map((r) => r.type);
    expect(v1).toContain('jetton_transfer');
    expect(v1).not.toContain('evaa_supply');
    const v2 = actionsForClient(rows, expandActionTypes(['v2']));
    expect(v2.map((r) => r.type)).toContain('evaa_supply');
    expect(v2.some((r) => r.parent_action_id === supply.action_id)).toBe(false);
  });
});
