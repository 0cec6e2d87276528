import type { Slice } from '../boc/slice.js';
import { keyToNumber, walkHashmap } from '../tlb/Hashmap.js';
import { loadAddr, refSlice } from './cell.js';

/**
 * Multisig v2 (ton-blockchain/multisig-contract-v2, `contracts/multisig.tlb`):
 *  - signer/proposer → multisig `new_order#f718510f query_id:uint64 order_seqno:uint256 signer:(## 1) index:uint8
 *    expiration_date:uint48 order:^Order`;
 *  - multisig → order `init#9c73fba2 query_id:uint64 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt)
 *    expiration_date:uint48 order:^Order approve_on_init:(## 1) signer_index:approve_on_init?uint8`;
 *  - signer → order `approve#a762230f query_id:uint64 signer_index:uint8`, or the text comment "approve";
 *  - order → signer `approve_accepted#82609bf6 query_id:uint64`, `approve_rejected#afaf283e query_id:uint64
 *    exit_code:uint32`;
 *  - order → multisig `execute#75097f5d query_id:uint64 order_seqno:uint256 expiration_date:uint48
 *    approvals_num:uint8 signers_hash:bits256 order:^Order`.
 * `Order` is `Hashmap 8 Action` with `send_message#f1381e5b mode:uint8 message:^Cell` and
 * `update_multisig_param#1d0cfbd3 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) proposers:(HashmapE 8 ...)`,
 * each action in a referenced cell (multisig.func `execute_order`).
 */
export const MULTISIG_NEW_ORDER = 0xf718510f;
export const MULTISIG_INIT_ORDER = 0x9c73fba2;
export const MULTISIG_APPROVE = 0xa762230f;
export const MULTISIG_APPROVE_ACCEPTED = 0x82609bf6;
export const MULTISIG_APPROVE_REJECTED = 0xafaf283e;
export const MULTISIG_EXECUTE = 0x75097f5d;
/** The comment an order takes as an approval by the sender (order.func `recv_internal`, op 0). */
export const MULTISIG_APPROVE_COMMENT = 'approve';
export const MULTISIG_ACTION_SEND_MESSAGE = 0xf1381e5b;
export const MULTISIG_ACTION_UPDATE_PARAMS = 0x1d0cfbd3;

export interface MultisigNewOrder {
  queryId: bigint;
  orderSeqno: bigint;
  isSigner: boolean;
  index: number;
  expirationDate: number;
  /** The `Order` cell (a reference of the body's root). */
  order: number;
}

export function loadMultisigNewOrder(s: Slice): MultisigNewOrder {
  if (s.loadUint(32) !== MULTISIG_NEW_ORDER) throw new Error('not a multisig new_order');
  return {
    queryId: s.loadUintBig(64),
    orderSeqno: s.loadUintBig(256),
    isSigner: s.loadBit(),
    index: s.loadUint(8),
    expirationDate: Number(s.loadUintBig(48)),
    order: s.loadRef(),
  };
}

export interface MultisigInitOrder {
  queryId: bigint;
  threshold: number;
  /** The signers dictionary (`^(Hashmap 8 MsgAddressInt)`). */
  signers: number;
  expirationDate: number;
  order: number;
  approveOnInit: boolean;
  /** -1 unless `approveOnInit`. */
  signerIndex: number;
}

export function loadMultisigInitOrder(s: Slice): MultisigInitOrder {
  if (s.loadUint(32) !== MULTISIG_INIT_ORDER) throw new Error('not a multisig order init');
  const queryId = s.loadUintBig(64);
  const threshold = s.loadUint(8);
  const signers = s.loadRef();
  const expirationDate = Number(s.loadUintBig(48));
  const order = s.loadRef();
  const approveOnInit = s.loadBit();
  return { queryId, threshold, signers, expirationDate, order, approveOnInit, signerIndex: approveOnInit ? s.loadUint(8) : -1 };
}

/**
 * The order init as TON Center's `MultisigInitOrder` reads it (messages/multisig.py, pytoniq-core 0.1.40): it takes
 * `signers` with `load_dict`, a HashmapE (a presence bit, then a reference only when the bit is 1), where the
 * multisig stores a bare reference (multisig.func `store_nonempty_dict`, an alias of STREF). The bit it reads is the
 * top bit of `expiration_date`, 0 for any timestamp below 2^47, so no reference is taken there: the `order` it reads
 * is the first reference (the signers dictionary), `approve_on_init` is the bit after the misread 48 bits (the top
 * bit of the creator's index when the creator is a signer), and a body with too few bits left (an order created by
 * a proposer, or a signer index of 128 or more) throws, which makes TON Center's matcher give no action.
 */
export function loadMultisigInitOrderAsTonCenter(s: Slice): { order: number; approveOnInit: boolean; signerIndex: number } {
  if (s.loadUint(32) !== MULTISIG_INIT_ORDER) throw new Error('not a multisig order init');
  s.loadUintBig(64);
  s.loadUint(8);
  if (s.loadBit()) s.loadRef();
  s.loadUintBig(48);
  const order = s.loadRef();
  const approveOnInit = s.loadBit();
  return { order, approveOnInit, signerIndex: approveOnInit ? s.loadUint(8) : -1 };
}

export function loadMultisigApprove(s: Slice): { queryId: bigint; signerIndex: number } {
  if (s.loadUint(32) !== MULTISIG_APPROVE) throw new Error('not a multisig approve');
  return { queryId: s.loadUintBig(64), signerIndex: s.loadUint(8) };
}

export function loadMultisigApproveRejected(s: Slice): { queryId: bigint; exitCode: number } {
  if (s.loadUint(32) !== MULTISIG_APPROVE_REJECTED) throw new Error('not a multisig approve_rejected');
  return { queryId: s.loadUintBig(64), exitCode: s.loadUint(32) };
}

export interface MultisigExecute {
  queryId: bigint;
  orderSeqno: bigint;
  expirationDate: number;
  approvalsNum: number;
  signersHash: Uint8Array;
  order: number;
}

export function loadMultisigExecute(s: Slice): MultisigExecute {
  if (s.loadUint(32) !== MULTISIG_EXECUTE) throw new Error('not a multisig execute');
  return {
    queryId: s.loadUintBig(64),
    orderSeqno: s.loadUintBig(256),
    expirationDate: Number(s.loadUintBig(48)),
    approvalsNum: s.loadUint(8),
    signersHash: s.loadBytes(32).slice(),
    order: s.loadRef(),
  };
}

/** A `Hashmap 8 MsgAddressInt` of signers (or proposers), in index order; a non-std address is null. */
export function loadMultisigSigners(root: Slice): { index: number; address: string | null }[] {
  const out: { index: number; address: string | null }[] = [];
  walkHashmap(root, 8, (v, key) => out.push({ index: keyToNumber(key), address: loadAddr(v) }));
  return out;
}

export type MultisigAction =
  | { index: number; type: 'send_message'; mode: number; message: number }
  | { index: number; type: 'update_multisig_param'; threshold: number; signers: number }
  | { index: number; type: 'unknown'; op: number };

/** The actions of an `Order` (`Hashmap 8 Action`, each action by reference), in index order. */
export function loadMultisigOrderActions(order: Slice): MultisigAction[] {
  const out: MultisigAction[] = [];
  walkHashmap(order, 8, (v, key) => {
    const index = keyToNumber(key);
    const a = refSlice(v, v.loadRef());
    const op = a.loadUint(32);
    if (op === MULTISIG_ACTION_SEND_MESSAGE) out.push({ index, type: 'send_message', mode: a.loadUint(8), message: a.loadRef() });
    else if (op === MULTISIG_ACTION_UPDATE_PARAMS) out.push({ index, type: 'update_multisig_param', threshold: a.loadUint(8), signers: a.loadRef() });
    else out.push({ index, type: 'unknown', op });
  });
  return out;
}

/**
 * An initialised order's storage (order.func `load_data`): `multisig_address:MsgAddressInt order_seqno:uint256
 * threshold:uint8 sent_for_execution:Bool signers:^(Hashmap 8 MsgAddressInt) approvals_mask:uint256
 * approvals_num:uint8 expiration_date:uint48 order:^Order`. Before `init` only the first two fields are stored:
 * then null. `signers` is null when the data's references are not at hand (only the root's bits are).
 */
export interface MultisigOrderData {
  multisig: string | null;
  orderSeqno: bigint;
  threshold: number;
  sentForExecution: boolean;
  approvalsMask: bigint;
  approvalsNum: number;
  expirationDate: number;
  signers: string[] | null;
}

export function loadMultisigOrderData(s: Slice): MultisigOrderData | null {
  const multisig = loadAddr(s);
  const orderSeqno = s.loadUintBig(256);
  if (s.remainingBits === 0) return null;
  const threshold = s.loadUint(8);
  const sentForExecution = s.loadBit();
  let signers: string[] | null = null;
  if (s.remainingRefs >= 2) {
    try {
      signers = loadMultisigSigners(refSlice(s, s.loadRef()))
        .map((x) => x.address)
        .filter((a): a is string => a !== null);
    } catch {
      signers = null;
    }
  }
  const approvalsMask = s.loadUintBig(256);
  const approvalsNum = s.loadUint(8);
  const expirationDate = Number(s.loadUintBig(48));
  if (s.remainingBits !== 0) throw new Error('not a multisig order storage');
  return { multisig, orderSeqno, threshold, sentForExecution, approvalsMask, approvalsNum, expirationDate, signers };
}
