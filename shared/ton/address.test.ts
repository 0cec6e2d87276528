import { describe, expect, it } from 'vitest';
import { AddressParseError, addressBookFriendly, crc16, friendlyAddress, isAddress, parseAddress, parseAddressForm, rawAddress } from './address.js';

// Known pairs: the elector (explorers), ton-core's test links (MANIFEST.md), TON Center testnet address book entries
// (fixtures/api-responses/toncenter_v3_testnet_transactions_axelar.json).
const ELECTOR = '-1:3333333333333333333333333333333333333333333333333333333333333333';

describe('addresses', () => {
  it('parses raw, bounceable and non-bounceable, base64 and base64url, mainnet and testnet forms to raw upper case', () => {
    expect(parseAddress('Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF')).toBe(ELECTOR);
    expect(parseAddress(ELECTOR.toLowerCase())).toBe(ELECTOR);
    expect(parseAddress('EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N')).toBe('0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8');
    const t = '-1:34517C7BDF5187C55AF4F8B61FDC321588C7AB768DEE24B006DF29106458D7CF';
    expect(parseAddress('Ef80UXx731GHxVr0-LYf3DIViMerdo3uJLAG3ykQZFjXz2kW')).toBe(t);
    expect(parseAddress('Ef80UXx731GHxVr0+LYf3DIViMerdo3uJLAG3ykQZFjXz2kW')).toBe(t);
    expect(parseAddress('kQANTS2w73WbiZX0cze0isYEYu7oWxrIoTK4Z9phO8OhRNAK')).toBe('0:0D4D2DB0EF759B8995F47337B48AC60462EEE85B1AC8A132B867DA613BC3A144');
    expect(parseAddress('0QAf4PoOeCiJKMoFkIxhf7kL3H7d5CnhRsoEi9zTHIkOdvn3')).toBe('0:1FE0FA0E78288928CA05908C617FB90BDC7EDDE429E146CA048BDCD31C890E76');
  });

  it('prints TON Center user-friendly forms: base64url, bounceable flag, testnet flag', () => {
    expect(friendlyAddress(ELECTOR, { bounceable: true, testnet: false })).toBe('Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF');
    expect(friendlyAddress('0:0D4D2DB0EF759B8995F47337B48AC60462EEE85B1AC8A132B867DA613BC3A144', { bounceable: true, testnet: true })).toBe(
      'kQANTS2w73WbiZX0cze0isYEYu7oWxrIoTK4Z9phO8OhRNAK',
    );
    expect(friendlyAddress('0:1FE0FA0E78288928CA05908C617FB90BDC7EDDE429E146CA048BDCD31C890E76', { bounceable: false, testnet: true })).toBe(
      '0QAf4PoOeCiJKMoFkIxhf7kL3H7d5CnhRsoEi9zTHIkOdvn3',
    );
    const nb = friendlyAddress('0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8', { bounceable: false, testnet: false })!;
    expect(nb.startsWith('UQ')).toBe(true);
    expect(parseAddress(nb)).toBe('0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8');
    expect(friendlyAddress('addr_var', { bounceable: true, testnet: false })).toBeNull();
    expect(friendlyAddress(`300:${'A'.repeat(64)}`, { bounceable: true, testnet: false })).toBeNull();
  });

  it('rejects what is not an address', () => {
    for (const bad of [
      '',
      'EQ',
      '0:abc',
      `0:${'g'.repeat(64)}`,
      `0:${'a'.repeat(63)}`,
      'Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vG', // checksum
      'Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0v', // 47 characters
      Buffer.alloc(36, 0x22).toString('base64url'), // checksum
      `99999999999:${'a'.repeat(64)}`,
      // Not trimmed: the Go parsers take the value as sent.
      ` ${ELECTOR}`,
      'Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF ',
    ]) {
      expect(isAddress(bad), bad).toBe(false);
    }
  });

  it('ignores the tag byte of a user-friendly address, as tonutils-go checks only length and CRC', () => {
    const bytes = Buffer.from('Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF', 'base64url');
    bytes[0] = 0x00;
    bytes.writeUInt16BE(crc16(bytes.subarray(0, 34)), 34);
    expect(parseAddress(bytes.toString('base64url'))).toBe(ELECTOR);
  });

  it('computes CRC-16/XMODEM', () => {
    expect(crc16(Buffer.from('123456789'))).toBe(0x31c3);
  });

  it('reads the flags of a user-friendly form: bounceable, test-only, url-safe', () => {
    // tonweb / TON docs: "EQ…" bounceable mainnet, "UQ…" non-bounceable, "kQ…" / "0Q…" their testnet forms.
    expect(parseAddressForm('Ef80UXx731GHxVr0-LYf3DIViMerdo3uJLAG3ykQZFjXz2kW').friendly).toEqual({ bounceable: true, testOnly: false, urlSafe: true });
    expect(parseAddressForm('Ef80UXx731GHxVr0+LYf3DIViMerdo3uJLAG3ykQZFjXz2kW').friendly).toEqual({ bounceable: true, testOnly: false, urlSafe: false });
    expect(parseAddressForm('kQANTS2w73WbiZX0cze0isYEYu7oWxrIoTK4Z9phO8OhRNAK').friendly).toMatchObject({ bounceable: true, testOnly: true });
    expect(parseAddressForm('0QAf4PoOeCiJKMoFkIxhf7kL3H7d5CnhRsoEi9zTHIkOdvn3').friendly).toMatchObject({ bounceable: false, testOnly: true });
    const raw = parseAddressForm(ELECTOR.toLowerCase());
    expect(raw.friendly).toBeUndefined();
    expect(raw.workchain).toBe(-1);
    expect(Buffer.from(raw.hash).toString('hex')).toBe('33'.repeat(32));
    expect(rawAddress(raw.workchain, raw.hash)).toBe(ELECTOR);
    expect(() => rawAddress(0, new Uint8Array(31))).toThrow(AddressParseError);
  });

  it('prints standard base64 on request, which parses back to the same address', () => {
    const std = friendlyAddress('-1:34517C7BDF5187C55AF4F8B61FDC321588C7AB768DEE24B006DF29106458D7CF', { bounceable: true, testnet: false, urlSafe: false });
    expect(std).toBe('Ef80UXx731GHxVr0+LYf3DIViMerdo3uJLAG3ykQZFjXz2kW');
  });

  it('writes the address book form: non-bounceable for no code or a wallet code, bounceable otherwise, addr_none when unwritable', () => {
    const a = '0:83DFD552E63729B472FCBCC8C45EBCC6691702558B68EC7527E1BA403A0F31A8';
    // indexing-semantics §3.1: the v4r2 code hash is one of the eleven wallet codes; highload v3 is not.
    expect(addressBookFriendly(a, '/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=', false)).toBe(friendlyAddress(a, { bounceable: false, testnet: false }));
    expect(addressBookFriendly(a, null, false).startsWith('UQ')).toBe(true);
    expect(addressBookFriendly(a, 'EayteVWEQJDyg78ji8FEmHH3g+fMCXlAjT9IWUg+hSU=', false)).toBe('EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N');
    expect(addressBookFriendly(a, 'EayteVWEQJDyg78ji8FEmHH3g+fMCXlAjT9IWUg+hSU=', true).startsWith('kQ')).toBe(true);
    expect(addressBookFriendly('addr_var', null, false)).toBe('addr_none');
  });
});
