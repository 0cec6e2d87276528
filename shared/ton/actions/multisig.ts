import {
  MULTISIG_APPROVE,
  MULTISIG_APPROVE_ACCEPTED,
  MULTISIG_APPROVE_COMMENT,
  MULTISIG_APPROVE_REJECTED,
  MULTISIG_EXECUTE,
  MULTISIG_INIT_ORDER,
  MULTISIG_NEW_ORDER,
  loadMultisigApprove,
  loadMultisigApproveRejected,
  loadMultisigExecute,
  loadMultisigInitOrderAsTonCenter,
  loadMultisigNewOrder,
} from '../bodies/Multisig.js';
import { cellToBocBase64 } from '../bodies/cell.js';
import { Block } from './block.js';
import { TonTransferBlock, isCall } from './basic.js';
import type { Family } from './classify.js';
import type { InterfaceRepository, MultisigOrderInfo } from './interfaces.js';
import { Matcher, OpMatcher, OrMatcher, getLabeled, labeled } from './matcher.js';
import type { ActionRow } from './row.js';

/**
 * Multisig v2 (multisig-contract-v2): an order created through the multisig (new_order → the order's init), a
 * signer's approval answered by the order, and the order's execute message to the multisig. Each needs the order
 * contract to be known as one (its signers go into the action's accounts); an unknown order leaves the messages
 * as their basic blocks, as in TON Center. `order_boc` is a BOC without CRC (pytoniq's `to_boc()` defaults): for
 * `multisig_execute` the `Order` cell; for `multisig_create_order` the cell TON Center's init reader takes for the
 * order, which is the signers dictionary (bodies/Multisig.ts `loadMultisigInitOrderAsTonCenter`).
 */

const hashB64 = (h: Uint8Array): string => Buffer.from(h).toString('base64');

function orderOf(repo: InterfaceRepository, address: string | null): MultisigOrderInfo | null {
  return address ? (repo(address)?.multisigOrder ?? null) : null;
}

class MultisigCreateOrderMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ child: labeled('init_order', new OpMatcher(MULTISIG_INIT_ORDER)) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, MULTISIG_NEW_ORDER);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const init = getLabeled('init_order', others);
    if (!init) return [];
    const order = orderOf(this.repo, init.message.destination);
    if (!order) return [];
    const n = loadMultisigNewOrder(block.body());
    const is = init.body();
    // As TON Center reads the init (see the reader): its `order_boc` and `is_signed_by_creator` are what that
    // reading gives, and a body it cannot read leaves the messages unclassified.
    const i = loadMultisigInitOrderAsTonCenter(is);
    const nb = new Block('multisig_create_order', [], {
      queryId: n.queryId,
      multisig: block.message.destination,
      orderSeqno: n.orderSeqno,
      createdBy: block.message.source,
      isCreatedBySigner: n.isSigner,
      creatorIndex: n.index,
      orderContract: init.message.destination,
      creatorApproved: i.approveOnInit,
      expirationDate: n.expirationDate,
      orderBoc: cellToBocBase64(is.boc, i.order, false),
      signers: order.signers,
    });
    nb.mergeBlocks([block, init]);
    return [nb];
  }
}

class MultisigApproveMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ child: new OrMatcher([labeled('accepted', new OpMatcher(MULTISIG_APPROVE_ACCEPTED)), labeled('rejected', new OpMatcher(MULTISIG_APPROVE_REJECTED))]) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, MULTISIG_APPROVE) || (b instanceof TonTransferBlock && b.data.comment === MULTISIG_APPROVE_COMMENT);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const accepted = getLabeled('accepted', others);
    const rejected = accepted ? null : getLabeled('rejected', others);
    if (!accepted && !rejected) return [];
    const exitCode = rejected ? loadMultisigApproveRejected(rejected.body()).exitCode : 0;
    // Approving by comment names no index: -1, as TON Center leaves it.
    let signerIndex = -1;
    if (isCall(block, MULTISIG_APPROVE)) {
      try {
        signerIndex = loadMultisigApprove(block.body()).signerIndex;
      } catch {
        signerIndex = -1;
      }
    }
    const order = orderOf(this.repo, block.message.destination);
    if (!order) return [];
    const nb = new Block('multisig_approve', [], {
      signer: block.message.source,
      order: block.message.destination,
      success: accepted !== null,
      signerIndex,
      exitCode,
      signers: order.signers,
    });
    nb.mergeBlocks([block, (accepted ?? rejected)!]);
    return [nb];
  }
}

class MultisigExecuteMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super();
  }
  override testSelf(b: Block): boolean {
    return isCall(b, MULTISIG_EXECUTE);
  }
  override build(block: Block): Block[] | null {
    const e = loadMultisigExecute(block.body());
    const order = orderOf(this.repo, block.message.source);
    if (!order) return [];
    const s = block.body();
    const nb = new Block('multisig_execute', [], {
      queryId: e.queryId,
      multisig: block.message.destination,
      success: !block.failed,
      orderContract: block.message.source,
      orderSeqno: e.orderSeqno,
      expirationDate: e.expirationDate,
      approvalsNum: e.approvalsNum,
      signersHash: hashB64(e.signersHash),
      orderBoc: cellToBocBase64(s.boc, e.order, false),
      signers: order.signers,
    });
    nb.mergeBlocks([block]);
    return [nb];
  }
}

/** TON Center's multisig matchers run early: after the DeDust deposits and Tonstakers, before vesting. */
export const multisigFamily: Family = {
  matchers: (repo) => [
    [70, new MultisigCreateOrderMatcher(repo)],
    [80, new MultisigApproveMatcher(repo)],
    [90, new MultisigExecuteMatcher(repo)],
  ],
  fillers: [
    [
      'multisig_create_order',
      (b: Block, row: ActionRow) => {
        const d = b.data;
        row.source = d.createdBy;
        row.destination = d.multisig;
        row.destination_secondary = d.orderContract;
        row.multisig_create_order_data = {
          query_id: d.queryId,
          order_seqno: d.orderSeqno,
          is_created_by_signer: d.isCreatedBySigner,
          is_signed_by_creator: d.creatorApproved,
          creator_index: d.creatorIndex,
          expiration_date: d.expirationDate,
          order_boc: d.orderBoc,
        };
        row.__accounts = d.signers;
      },
    ],
    [
      'multisig_approve',
      (b: Block, row: ActionRow) => {
        const d = b.data;
        row.source = d.signer;
        row.destination = d.order;
        row.success = d.success;
        row.multisig_approve_data = { signer_index: d.signerIndex, exit_code: d.exitCode };
        row.__accounts = d.signers;
      },
    ],
    [
      'multisig_execute',
      (b: Block, row: ActionRow) => {
        const d = b.data;
        row.source = d.orderContract;
        row.destination = d.multisig;
        row.success = d.success;
        row.multisig_execute_data = {
          query_id: d.queryId,
          order_seqno: d.orderSeqno,
          expiration_date: d.expirationDate,
          approvals_num: d.approvalsNum,
          signers_hash: d.signersHash,
          order_boc: d.orderBoc,
        };
        row.__accounts = d.signers;
      },
    ],
  ],
};
