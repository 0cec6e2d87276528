import type { Slice } from '../boc/slice.js';
import { loadAddr, refSlice } from './cell.js';

/**
 * TON DNS `change_dns_record#4eb1f0f9 query_id:uint64 key:bits256 value:(Maybe ^DNSRecord)` (a record without
 * value deletes the key; the zero key without value renews the domain). `DNSRecord` (TEP-81):
 * `dns_next_resolver#ba93 resolver:MsgAddressInt`, `dns_adnl_address#ad01 adnl_addr:bits256 flags:uint8 ...`,
 * `dns_smc_address#9fd3 smc_addr:MsgAddressInt flags:uint8 ...`, `dns_storage_address#7473 bag_id:bits256`,
 * `dns_text#1eda _:Text` (chunk count, then length-prefixed chunks).
 */
export const DNS_CHANGE_RECORD = 0x4eb1f0f9;

export type DnsValue =
  | { schema: 'DNSNextResolver'; address: string | null }
  | { schema: 'DNSAdnlAddress'; bytes: Uint8Array; flags: number }
  | { schema: 'DNSSmcAddress'; address: string | null; flags: number }
  | { schema: 'DNSStorageAddress'; bytes: Uint8Array }
  | { schema: 'DNSText'; text: string }
  | { schema: 'Unknown' };

export function loadDnsChangeRecord(s: Slice): { key: Uint8Array; value: DnsValue | null } {
  s.loadUint(32);
  s.loadUintBig(64);
  const key = s.loadBytes(32).slice();
  if (s.remainingRefs === 0) return { key, value: null };
  return { key, value: loadDnsRecord(refSlice(s, s.loadRef())) };
}

function loadDnsRecord(v: Slice): DnsValue {
  const schema = v.loadUint(16);
  switch (schema) {
    case 0xba93:
      return { schema: 'DNSNextResolver', address: loadAddr(v) };
    case 0xad01:
      return { schema: 'DNSAdnlAddress', bytes: v.loadBytes(32).slice(), flags: v.loadUint(8) };
    case 0x9fd3:
      return { schema: 'DNSSmcAddress', address: loadAddr(v), flags: v.loadUint(8) };
    case 0x7473:
      return { schema: 'DNSStorageAddress', bytes: v.loadBytes(32).slice() };
    case 0x1eda: {
      // TON Center reads every chunk from the record cell and steps into the next cell only once.
      let chunks = v.loadUint(8);
      let text = '';
      let stepped = false;
      while (chunks > 0) {
        const len = v.loadUint(8);
        text += new TextDecoder('utf-8', { fatal: true }).decode(v.loadBytes(len));
        chunks--;
        if (chunks > 0) {
          if (stepped) throw new Error('DNS text of more than two chunks');
          v.loadRef();
          stepped = true;
        }
      }
      return { schema: 'DNSText', text };
    }
    default:
      return { schema: 'Unknown' };
  }
}
