import { NonRetryableError } from '../../runtime/errors.js';
import { saleListingVersion } from '../bodies/GetgemsSaleStateInit.js';
import { auctionLayout } from '../interfaces/auction-facts.js';
import { DNS_ITEM_CODE_HASH } from './auctions.js';
import type { AccountInterfaces, InterfaceRepository } from './interfaces.js';
import type { Trace, TraceMessage, TraceTransaction } from './trace.js';

/**
 * TON Center's recorded-trace format (the action-corpus JSON files: the trace row, its transactions with their
 * messages and bodies, and the interfaces detected on each account) → the classifier's input and an interface
 * repository answering from the recording.
 */
export class CorpusFormatError extends NonRetryableError {
  constructor(message: string) {
    super('CORPUS_FORMAT', message);
  }
}

type Json = Record<string, any>;

function req(o: Json, key: string, where: string): any {
  if (o === null || typeof o !== 'object' || !(key in o)) throw new CorpusFormatError(`${where}: missing "${key}"`);
  return o[key];
}

function big(v: unknown): bigint | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : BigInt(Math.round(v).toLocaleString('fullwide', { useGrouping: false }));
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  return null;
}

export function parseCorpusTrace(doc: unknown): { trace: Trace; repo: InterfaceRepository } {
  if (doc === null || typeof doc !== 'object') throw new CorpusFormatError('not a JSON object');
  const d = doc as Json;
  const t = req(d, 'trace', 'file');
  const txsIn = req(d, 'transactions', 'file');
  if (!Array.isArray(txsIn)) throw new CorpusFormatError('"transactions" is not an array');
  const contents = new Map<string, string>();
  for (const c of (d.message_contents ?? []) as Json[]) if (c && c.hash && c.body) contents.set(c.hash, c.body);
  const transactions: TraceTransaction[] = txsIn.map((tx: Json, i: number) => {
    const where = `transactions[${i}]`;
    const msgs = req(tx, 'messages', where);
    if (!Array.isArray(msgs)) throw new CorpusFormatError(`${where}.messages is not an array`);
    return {
      hash: req(tx, 'hash', where),
      account: req(tx, 'account', where),
      lt: String(req(tx, 'lt', where)),
      now: req(tx, 'now', where),
      mc_block_seqno: tx.mc_block_seqno ?? null,
      orig_status: tx.orig_status,
      end_status: tx.end_status,
      total_fees: tx.total_fees ?? null,
      descr: tx.descr,
      aborted: tx.aborted === true,
      compute_exit_code: tx.compute_exit_code ?? null,
      skipped_reason: tx.skipped_reason ?? null,
      emulated: tx.emulated === true,
      messages: msgs.map((m: Json, j: number): TraceMessage => ({
        msg_hash: req(m, 'msg_hash', `${where}.messages[${j}]`),
        tx_hash: m.tx_hash ?? tx.hash,
        direction: m.direction,
        source: m.source ?? null,
        destination: m.destination ?? null,
        value: m.value ?? null,
        fwd_fee: m.fwd_fee ?? null,
        created_lt: m.created_lt === null || m.created_lt === undefined ? null : String(m.created_lt),
        created_at: m.created_at ?? null,
        opcode: m.opcode ?? null,
        bounce: m.bounce ?? null,
        bounced: m.bounced ?? null,
        value_extra_currencies: m.value_extra_currencies ?? null,
        body: m.message_content?.body ?? (m.body_hash ? contents.get(m.body_hash) ?? null : null),
        init_state: m.init_state?.body ?? null,
      })),
    };
  });
  const trace: Trace = {
    trace: {
      trace_id: req(t, 'trace_id', 'trace'),
      external_hash: t.external_hash ?? null,
      external_hash_norm: t.external_hash_norm ?? null,
      mc_seqno_end: t.mc_seqno_end ?? null,
      start_lt: String(t.start_lt),
      start_utime: t.start_utime,
      end_lt: String(t.end_lt),
      end_utime: t.end_utime,
    },
    transactions,
  };
  const table = new Map<string, AccountInterfaces>();
  for (const [addr, v] of Object.entries((d.interfaces ?? {}) as Json)) {
    const out: AccountInterfaces = {};
    const jw = v?.JettonWallet;
    if (jw) out.jettonWallet = { address: jw.address ?? addr, owner: jw.owner, jetton: jw.jetton, balance: big(jw.balance) };
    const ni = v?.NftItem;
    if (ni) {
      out.nftItem = {
        address: ni.address ?? addr,
        index: big(ni.index),
        collection: ni.collection_address ?? null,
        owner: ni.owner_address ?? null,
        init: ni.init,
        domain: ni.content?.domain ?? null,
        contentUri: ni.content?.uri ?? null,
        dns: ni.code_hash === DNS_ITEM_CODE_HASH,
      };
    }
    for (const [k, key] of [['NftSale', 'nftSale'], ['NftAuction', 'nftAuction']] as const) {
      const s = v?.[k];
      if (s) {
        out[key] = {
          address: s.address ?? addr,
          marketplace: s.marketplace_address ?? s.mp_addr ?? null,
          nft: s.nft_address ?? s.nft_addr ?? null,
          owner: s.nft_owner_address ?? s.nft_owner ?? null,
          fullPrice: big(s.full_price ?? s.last_bid),
          marketplaceFee: big(s.marketplace_fee),
          royaltyAmount: big(s.royalty_amount),
          marketplaceFeeAddress: s.marketplace_fee_address ?? null,
          royaltyAddress: s.royalty_address ?? s.royalty_fee_addr ?? null,
        };
        // TON Center reads a listing's state init in the layout of the contract's code hash, when its record has one.
        if (key === 'nftSale' && typeof s.code_hash === 'string') out.nftSale!.version = saleListingVersion(s.code_hash);
        if (key === 'nftAuction') {
          if (typeof s.code_hash === 'string') Object.assign(out[key], { version: auctionLayout(s.code_hash) });
          Object.assign(out[key], {
            marketplaceFeeAddress: s.mp_fee_addr ?? null,
            mpFeeFactor: big(s.mp_fee_factor),
            mpFeeBase: big(s.mp_fee_base),
            royaltyFeeBase: big(s.royalty_fee_base),
            maxBid: big(s.max_bid),
            minBid: big(s.min_bid),
          });
        }
      }
    }
    if (v?.NominatorPool) out.nominatorPool = true;
    const dp = v?.DedustPool;
    if (dp) out.dedustPool = { address: addr, assets: (dp.assets ?? []).map((a: Json) => (a.is_ton ? null : a.address)) };
    const mo = v?.MultisigOrder;
    if (mo) out.multisigOrder = { address: mo.address ?? addr, multisig: mo.multisig_address ?? null, signers: Array.isArray(mo.signers) ? mo.signers : [] };
    if (v?.data_boc) out.extra = { data_boc: v.data_boc };
    table.set(addr, out);
  }
  return { trace, repo: (a) => table.get(a) };
}
