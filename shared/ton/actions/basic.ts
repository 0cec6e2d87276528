import { loadTransferComment } from '../bodies/TextComment.js';
import { decodeComment } from '../bodies/cell.js';
import { Block } from './block.js';
import type { EventNode } from './trace.js';

/**
 * Basic blocks, one per event node before any matcher runs (actions.md step 1): a plain TON transfer (opcode 0,
 * the encrypted comment, or none, between two accounts), a contract call (everything else, external messages
 * and ext-out logs included), a tick-tock; a deployment seen on a transfer or call is a child `contract_deploy`.
 */

export interface MessageData {
  source: string | null;
  destination: string | null;
  value: bigint | null;
  opcode: number | null;
  extraCurrencies: Record<string, string> | null;
}

function messageData(node: EventNode): MessageData {
  const m = node.message;
  return {
    source: m.source,
    destination: m.destination,
    value: m.value === null || m.value === undefined ? null : BigInt(m.value),
    opcode: node.opcode,
    extraCurrencies: m.value_extra_currencies ?? null,
  };
}

function isDeployment(node: EventNode): boolean {
  const tx = node.tx;
  return tx.end_status === 'active' && tx.orig_status !== 'active' && tx.orig_status !== 'frozen';
}

export class TonTransferBlock extends Block {
  declare data: MessageData & { comment: string | null; encrypted: boolean };

  constructor(node: EventNode) {
    let encrypted = false;
    let comment: string | null = null;
    try {
      const c = loadTransferComment(node.body());
      encrypted = c.encrypted;
      if (c.comment !== null) comment = encrypted ? Buffer.from(c.comment).toString('base64') : decodeComment(c.comment);
    } catch {
      // An unreadable body is a transfer without comment.
    }
    super('ton_transfer', [node], { ...messageData(node), comment, encrypted });
    if (node.failed) {
      if (node.message.bounce === true) this.failed = true;
      else if (node.tx.end_status === 'uninit') this.failed = false;
      else if (node.message.source !== null && node.tx.skipped_reason === 'no_gas') this.failed = false;
      else this.failed = true;
    }
    if (isDeployment(node)) this.children.push(new ContractDeployBlock(node));
  }
}

export class CallContractBlock extends Block {
  declare data: MessageData;
  readonly op: number | null;

  constructor(node: EventNode) {
    super('call_contract', [node], messageData(node));
    this.op = node.opcode;
    this.failed = node.failed;
    const v = this.data.value;
    const hasExtra = this.data.extraCurrencies !== null && Object.keys(this.data.extraCurrencies).length > 0;
    if (this.failed && !v && this.op && !hasExtra) this.failed = false;
    if (isDeployment(node)) this.children.push(new ContractDeployBlock(node));
  }

  override get opcode(): number | null {
    return this.op;
  }
}

export class ContractDeployBlock extends Block {
  declare data: MessageData;
  constructor(node: EventNode) {
    super('contract_deploy', [node], messageData(node));
    this.failed = node.failed;
  }

  override get opcode(): number | null {
    return this.data.opcode;
  }
}

export class TickTockBlock extends Block {
  constructor(node: EventNode) {
    super('tick_tock', [node], { account: node.tx.account });
    this.failed = node.failed;
  }
}

/** The basic block of a node and, recursively, of its children, connected in trace order. */
export function initBlock(node: EventNode): Block {
  const op = node.opcode;
  const isTonTransfer = op === 0 || op === null || op === 0x2167da4b;
  let block: Block;
  if (node.isTickTock) block = new TickTockBlock(node);
  else if (isTonTransfer && node.message.destination !== null && node.message.source !== null) block = new TonTransferBlock(node);
  else block = new CallContractBlock(node);
  for (const c of node.children) block.connect(initBlock(c));
  return block;
}

export function isCall(b: Block, opcode?: number): b is CallContractBlock {
  return b instanceof CallContractBlock && (opcode === undefined || b.op === opcode);
}
