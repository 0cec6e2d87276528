import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type AccountStatus, loadAccountStatus } from './AccountStatus.js';
import { type CurrencyCollection, loadCurrencyCollection } from './CurrencyCollection.js';
import { walkHashmapEValues } from './Hashmap.js';
import { type HashUpdate, loadHashUpdate } from './HashUpdate.js';
import { type Message, loadMessage } from './Message.js';
import { type TransactionDescr, loadTransactionDescr } from './TransactionDescr.js';

/**
 * `transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64 now:uint32
 * outmsg_cnt:uint15 orig_status:AccountStatus end_status:AccountStatus
 * ^[ in_msg:(Maybe ^(Message Any)) out_msgs:(HashmapE 15 ^(Message Any)) ]
 * total_fees:CurrencyCollection state_update:^(HASH_UPDATE Account) description:^TransactionDescr` (block.tlb).
 */
export interface Transaction {
  cell: number;
  accountAddr: Uint8Array;
  lt: bigint;
  prevTransHash: Uint8Array;
  prevTransLt: bigint;
  now: number;
  outmsgCnt: number;
  origStatus: AccountStatus;
  endStatus: AccountStatus;
  inMsg: Message | null;
  /** Out messages in `out_msgs` key order (0, 1, …), which is creation order. */
  outMsgs: Message[];
  totalFees: CurrencyCollection;
  stateUpdate: HashUpdate;
  description: TransactionDescr;
}

export function loadTransaction(s: Slice): Transaction {
  const tag = s.loadUint(4);
  if (tag !== 0b0111) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'Transaction', `tag $${tag.toString(2).padStart(4, '0')}`);
  const accountAddr = s.loadBytes(32);
  const lt = s.loadUintBig(64);
  const prevTransHash = s.loadBytes(32);
  const prevTransLt = s.loadUintBig(64);
  const now = s.loadUint(32);
  const outmsgCnt = s.loadUint(15);
  const origStatus = loadAccountStatus(s);
  const endStatus = loadAccountStatus(s);
  const msgs = new Slice(s.boc, s.loadRef());
  const inRef = msgs.loadMaybeRef();
  const inMsg = inRef >= 0 ? loadMessage(new Slice(s.boc, inRef)) : null;
  const outMsgs: Message[] = [];
  walkHashmapEValues(msgs, 15, (v) => outMsgs.push(loadMessage(new Slice(s.boc, v.loadRef()))));
  const totalFees = loadCurrencyCollection(s);
  const stateUpdate = loadHashUpdate(new Slice(s.boc, s.loadRef()));
  const description = loadTransactionDescr(new Slice(s.boc, s.loadRef()));
  return {
    cell: s.cell,
    accountAddr,
    lt,
    prevTransHash,
    prevTransLt,
    now,
    outmsgCnt,
    origStatus,
    endStatus,
    inMsg,
    outMsgs,
    totalFees,
    stateUpdate,
    description,
  };
}
