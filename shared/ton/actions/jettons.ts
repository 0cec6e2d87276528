import { JETTON_BURN, JETTON_BURN_NOTIFICATION, loadJettonBurn } from '../bodies/JettonBurn.js';
import { JETTON_INTERNAL_TRANSFER, loadJettonInternalTransfer } from '../bodies/JettonInternalTransfer.js';
import { JETTON_MINT, MINTER_JETTON_MINT, loadJettonMint } from '../bodies/JettonMint.js';
import { JETTON_NOTIFY } from '../bodies/JettonNotify.js';
import { JETTON_TRANSFER, type JettonTransfer, loadJettonTransfer } from '../bodies/JettonTransfer.js';
import { decodeComment } from '../bodies/cell.js';
import { Block } from './block.js';
import { CallContractBlock, isCall } from './basic.js';
import { type InterfaceRepository, jettonWallet } from './interfaces.js';
import { Matcher, OpMatcher, OrMatcher, findCall } from './matcher.js';

/**
 * Jetton families (TEP-74): transfer → internal_transfer → transfer_notification (+ excesses), pTON transfers
 * (no internal_transfer), burn → burn_notification, mints, and the fallback transfer of a failed wallet external.
 */

export interface JettonTransferData {
  hasInternalTransfer: boolean;
  sender: string | null;
  senderWallet: string | null;
  receiver: string | null;
  receiverWallet: string | null;
  response: string | null;
  forwardAmount: bigint;
  queryId: bigint;
  asset: string | null;
  amount: bigint;
  forwardPayload: string | null;
  customPayload: string | null;
  comment: string | null;
  encryptedComment: boolean;
  stonfiSwap: JettonTransfer['stonfiSwap'];
}

export class JettonTransferBlock extends Block {
  declare data: JettonTransferData;
  constructor(
    data: JettonTransferData,
    readonly msg: JettonTransfer,
  ) {
    super('jetton_transfer', [], data);
  }
}

function commentText(msg: JettonTransfer): string | null {
  if (msg.comment === null) return null;
  return msg.encryptedComment ? Buffer.from(msg.comment).toString('base64') : decodeComment(msg.comment);
}

function transferData(msg: JettonTransfer, over: Partial<JettonTransferData>): JettonTransferData {
  return {
    hasInternalTransfer: false,
    sender: null,
    senderWallet: null,
    receiver: msg.destination,
    receiverWallet: null,
    response: msg.response,
    forwardAmount: msg.forwardAmount,
    queryId: msg.queryId,
    asset: null,
    amount: msg.amount,
    forwardPayload: msg.forwardPayload,
    customPayload: msg.customPayload,
    comment: commentText(msg),
    encryptedComment: msg.encryptedComment,
    stonfiSwap: msg.stonfiSwap,
    ...over,
  };
}

export class JettonTransferMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ child: new OpMatcher(JETTON_INTERNAL_TRANSFER, { child: new OpMatcher(JETTON_NOTIFY, { optional: true }) }) });
  }

  override testSelf(b: Block): boolean {
    return isCall(b, JETTON_TRANSFER);
  }

  override build(block: Block, others: Block[]): Block[] | null {
    const msg = loadJettonTransfer(block.body());
    const internal = findCall(others, JETTON_INTERNAL_TRANSFER)!;
    let amount = msg.amount;
    let forwardAmount = msg.forwardAmount;
    try {
      const it = loadJettonInternalTransfer(internal.body());
      amount = it.amount;
      forwardAmount = it.forwardAmount;
    } catch {
      // Keep the transfer's own amounts.
    }
    const receiverWallet = internal.message.destination;
    const info = jettonWallet(this.repo, receiverWallet);
    if (info === null) return [];
    let receiver = msg.destination;
    if (info.owner !== receiver) {
      block.broken = true;
      receiver = info.owner;
    }
    const nb = new JettonTransferBlock(
      transferData(msg, {
        hasInternalTransfer: true,
        sender: block.message.source,
        senderWallet: block.message.destination,
        receiver,
        receiverWallet,
        forwardAmount,
        asset: info.jetton,
        amount,
      }),
      msg,
    );
    nb.mergeBlocks([block, ...others]);
    nb.failed = block.failed || internal.failed;
    return [nb];
  }
}

/** pTON (STON.fi proxy TON, TONCO wTTON) masters: their wallets take a transfer and answer with a notification only. */
export const PTON_MASTERS = new Set([
  '0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C',
  '0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3',
  '0:949C4C66760C002800E2FA3D8A3CA4E1C90A9373B53AE7472033483BF14CD95E',
]);

export class PTonTransferMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ child: new OpMatcher(JETTON_NOTIFY, { optional: true }) });
  }

  override testSelf(b: Block): boolean {
    return isCall(b, JETTON_TRANSFER);
  }

  override build(block: Block, others: Block[]): Block[] | null {
    const msg = loadJettonTransfer(block.body());
    const info = jettonWallet(this.repo, block.message.destination);
    if (info === null || !PTON_MASTERS.has(info.jetton)) return [];
    const nb = new JettonTransferBlock(transferData(msg, { sender: block.message.source, asset: info.jetton }), msg);
    nb.mergeBlocks([block, ...others]);
    nb.failed = block.failed;
    return [nb];
  }
}

/** The transfer of a failed wallet external (no transaction followed): what the wallet tried to send. */
export class FallbackJettonTransferMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super();
  }

  override testSelf(b: Block): boolean {
    return isCall(b, JETTON_TRANSFER);
  }

  override build(block: Block, others: Block[]): Block[] | null {
    const msg = loadJettonTransfer(block.body());
    const info = jettonWallet(this.repo, block.message.destination);
    const nb = new JettonTransferBlock(
      transferData(msg, { sender: block.message.source, senderWallet: block.message.destination, asset: info?.jetton ?? null }),
      msg,
    );
    nb.mergeBlocks([block, ...others]);
    nb.failed = block.failed;
    return [nb];
  }
}

export class JettonBurnMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({ child: new OpMatcher(JETTON_BURN_NOTIFICATION, { optional: true }) });
  }

  override testSelf(b: Block): boolean {
    return isCall(b, JETTON_BURN);
  }

  override build(block: Block, others: Block[]): Block[] | null {
    const msg = loadJettonBurn(block.body());
    const wallet = jettonWallet(this.repo, block.message.destination);
    if (wallet === null) return null;
    const nb = new Block('jetton_burn', [], { owner: wallet.owner, jettonWallet: block.message.destination, amount: msg.amount, asset: wallet.jetton });
    nb.mergeBlocks([block, ...others]);
    nb.failed = block.failed;
    return [nb];
  }
}

export class JettonMintMatcher extends Matcher {
  constructor(private readonly repo: InterfaceRepository) {
    super({
      child: new OrMatcher(
        [
          new OpMatcher(JETTON_NOTIFY, { optional: true }),
          new OpMatcher(JETTON_INTERNAL_TRANSFER, { optional: true, child: new OpMatcher(JETTON_NOTIFY, { optional: true }) }),
        ],
        true,
      ),
    });
  }

  override testSelf(b: Block): boolean {
    return b instanceof CallContractBlock && (b.op === JETTON_MINT || b.op === MINTER_JETTON_MINT);
  }

  override build(block: Block, others: Block[]): Block[] | null {
    const mint = loadJettonMint(block.body());
    const internal = findCall(others, JETTON_INTERNAL_TRANSFER);
    let data: Record<string, unknown>;
    let failed = true;
    if (!block.failed && internal !== null) {
      const it = loadJettonInternalTransfer(internal.body());
      const wallet = jettonWallet(this.repo, internal.message.destination);
      if (wallet === null) throw new Error('receiver jetton wallet unknown');
      failed = block.failed || internal.failed;
      data = { to: wallet.owner, toWallet: wallet.address, amount: it.amount, tonAmount: mint.tonAmount, asset: wallet.jetton };
    } else {
      data = {
        to: mint.to,
        toWallet: null,
        asset: block.message.destination,
        amount: (block as CallContractBlock).op === MINTER_JETTON_MINT ? mint.masterAmount : null,
        tonAmount: mint.tonAmount,
      };
    }
    const nb = new Block('jetton_mint', [], data);
    nb.failed = failed;
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}
