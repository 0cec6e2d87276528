import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeFixtures, fixturesDir } from '../../../test/helpers/fixtures.js';
import { AddressParseError, friendlyAddress } from '../../../shared/ton/address.js';
import { Boc } from '../boc/reader.js';
import { KNOWN_CODES } from './code-hashes.js';
import { createInterfaceRepository, interfacesOfCode, normaliseCodeHash } from './repository.js';
import { SPECIAL_WALLETS, WALLETS, addressBookInterfaces } from './wallets.js';

/*
 * The code-hash table against independent statements: MANIFEST.md's hash of every compiled contract code in the
 * fixtures (computed there with @ton/core), tongo's interface table, and indexing-semantics §5.5's wallet list. Each
 * fixture BOC is also hashed here with our own BOC reader, so the table's hashes are the hashes accounts carry.
 */

interface ManifestCode {
  file: string;
  codeHash: string;
  /** tongo's interface name(s) for this hash as MANIFEST.md lists them, or [] ("none"). */
  tongo: string[];
}

function manifestCodes(): ManifestCode[] {
  const text = readFileSync(path.join(fixturesDir, 'MANIFEST.md'), 'utf8');
  const out: ManifestCode[] = [];
  for (const m of text.matchAll(/### `contracts\/([^`]+\.code\.boc)`([\s\S]*?)(?=\n### |\n## |$)/g)) {
    const hash = /code_hash=([0-9a-f]{64})/.exec(m[2]!);
    const tongo = /tongo interface\(s\) for this hash: ([^|\n]*)/.exec(m[2]!);
    if (!hash) continue;
    const names = (tongo?.[1] ?? 'none').trim();
    out.push({ file: m[1]!, codeHash: hash[1]!, tongo: names === 'none' ? [] : names.split(/,\s*/) });
  }
  return out;
}

const tongoTable = (): Array<{ interface: string; code_hash: string }> =>
  JSON.parse(readFileSync(path.join(fixturesDir, 'contracts', 'tongo_interface_code_hashes.json'), 'utf8')) as Array<{ interface: string; code_hash: string }>;

const b64ToHex = (b64: string): string => Buffer.from(b64, 'base64').toString('hex');

describeFixtures('contract interfaces by code hash', () => {
  it('hashes every fixture contract code to the hash MANIFEST.md states, and the table names each one', () => {
    const codes = manifestCodes();
    expect(codes.length).toBeGreaterThanOrEqual(45);
    for (const c of codes) {
      const boc = Boc.parse(readFileSync(path.join(fixturesDir, 'contracts', c.file)));
      expect(Buffer.from(boc.hash(boc.root)).toString('hex'), c.file).toBe(c.codeHash);
      const found = interfacesOfCode(c.codeHash);
      expect(found, c.file).toHaveLength(1);
      // Where tongo names the hash, the table uses its name (tongo calls v1r1 plain "wallet").
      if (c.tongo.length > 0) expect(c.tongo.map((n) => (n === 'wallet' ? 'wallet_v1r1' : n)), c.file).toContain(found[0]!.name);
    }
    // Every table entry that cites a fixture file carries that file's stated hash.
    const byFile = new Map(codes.map((c) => [c.file, c.codeHash]));
    for (const k of KNOWN_CODES.filter((e) => e.source.startsWith('fixtures '))) {
      const file = k.source.replace('fixtures contracts/', '');
      expect(byFile.get(file), k.name).toBe(k.codeHash);
    }
  });

  it('agrees with tongo on every hash it takes from tongo', () => {
    const tongo = new Map<string, string[]>();
    for (const e of tongoTable()) tongo.set(e.code_hash, [...(tongo.get(e.code_hash) ?? []), e.interface]);
    const fromTongo = KNOWN_CODES.filter((k) => k.source === 'tongo');
    expect(fromTongo.length).toBeGreaterThan(20);
    for (const k of fromTongo) expect(tongo.get(k.codeHash), k.name).toContain(k.name);
    // And no hash is listed twice.
    expect(new Set(KNOWN_CODES.map((k) => k.codeHash)).size).toBe(KNOWN_CODES.length);
  });
});

it('keeps the eleven wallet codes of indexing-semantics §5.5 and the special wallets in the wider table, as wallets', () => {
  // indexing-semantics §5.5 lists v5 beta and v5r1 in base64.
  expect(b64ToHex('89fKU0k97trCizgZhqhJQDy6w9LFhHea8IEGWvCsS5M=')).toBe('f3d7ca53493deedac28b381986a849403cbac3d2c584779af081065af0ac4b93');
  expect(WALLETS.size).toBe(11);
  for (const [b64, w] of WALLETS) expect(interfacesOfCode(b64), w.type).toEqual([{ name: w.iface, kind: 'wallet' }]);
  for (const [b64, name] of SPECIAL_WALLETS) expect(interfacesOfCode(b64)[0]?.name, name).toBe(name);
  // The address book prints wallet and special-wallet names only (TON Center's code-hash match).
  expect(addressBookInterfaces('/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=')).toEqual(['wallet_v4r2']);
  expect(addressBookInterfaces(Buffer.from('7c00d788e9d301dda2ef454ceadeb9f405242d1cf627563e469c303e354c7cb1', 'hex').toString('base64'))).toEqual([]);
});

it('reads code hashes in hex, base64 and url-safe base64, and nothing else', () => {
  const hex = 'feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0';
  expect(normaliseCodeHash(hex.toUpperCase())).toBe(hex);
  expect(normaliseCodeHash('/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=')).toBe(hex);
  expect(normaliseCodeHash('_rX_aCDi_w2Ug-fg1iyBfYRniftK5YDIeIZtlZ2r1cA=')).toBe(hex);
  for (const bad of ['', hex.slice(1), `0:${hex}`, 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N']) expect(normaliseCodeHash(bad), bad).toBeNull();
  expect(interfacesOfCode('00'.repeat(32))).toEqual([]);
  expect(interfacesOfCode(null)).toEqual([]);
});

it('InterfaceRepository: an address (any form) through its code hash, a code hash directly, bad input as an address error', async () => {
  const jettonWallet = '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8';
  const asked: string[] = [];
  const codeHashes = new Map<string, string | null>([
    [jettonWallet, Buffer.from('8f452d7a4dfd74066b682365177259ed05734435be76b5fd4bd5d8af2b7c3d68', 'hex').toString('base64')],
    ['-1:3333333333333333333333333333333333333333333333333333333333333333', null],
  ]);
  const repo = createInterfaceRepository({
    codeHashOf: async (raw) => {
      asked.push(raw);
      return codeHashes.get(raw) ?? null;
    },
  });
  expect(await repo.interfacesOf(friendlyAddress(jettonWallet, { bounceable: true, testnet: false })!)).toEqual([{ name: 'jetton_wallet_governed', kind: 'jetton_wallet' }]);
  expect(await repo.interfacesOf(jettonWallet.toLowerCase())).toEqual([{ name: 'jetton_wallet_governed', kind: 'jetton_wallet' }]);
  expect(asked).toEqual([jettonWallet, jettonWallet]);
  expect(await repo.interfacesOf('-1:3333333333333333333333333333333333333333333333333333333333333333')).toEqual([]);
  expect(await repo.interfacesOf('b48b531abec3b714638291f7d77ed6dc9f6a2729efca20477137374d4ae8b590')).toEqual([{ name: 'wallet_vesting', kind: 'vesting' }]);
  expect(asked).toHaveLength(3);
  await expect(repo.interfacesOf('not-an-address')).rejects.toBeInstanceOf(AddressParseError);
});
