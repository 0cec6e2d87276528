import { JETTON_BURN_NOTIFICATION } from '../bodies/JettonBurn.js';
import {
  TGBTC_BURN_ALT_NOTIFICATION,
  TGBTC_BURN_EVENT,
  TGBTC_DKG_COMPLETED_EVENT,
  TGBTC_MINT_EVENT,
  TGBTC_MINT_HEAD,
  TGBTC_MINT_TAIL,
  TGBTC_NEW_KEY_EVENT,
  TGBTC_NEW_KEY_REQUEST,
  TGBTC_PEGOUT,
  TGBTC_PEGOUT_NEXT,
  loadTgBtcBurnEvent,
  loadTgBtcDkgCompleted,
  loadTgBtcMintEvent,
  loadTgBtcNewKeyEvent,
} from '../bodies/TgBtc.js';
import { Block } from './block.js';
import { isCall } from './basic.js';
import type { Family } from './classify.js';
import { Matcher, OpMatcher, OrMatcher, PredicateMatcher, TypeMatcher, getLabeled, labeled } from './matcher.js';

/**
 * tgBTC: mint (the mint chain from its head message to the jetton mint, confirmed by the mint log), burn (a
 * jetton burn confirmed by the burn log), key rotation; and, when only a log was seen, the `_fallback` types.
 */

/** The bitcoin txid: the log's uint256 written as 32 little-endian bytes. */
function txidHex(v: bigint): string {
  const be = v.toString(16).padStart(64, '0');
  let out = '';
  for (let i = 62; i >= 0; i -= 2) out += be.slice(i, i + 2);
  return out;
}

class TgBtcMintMatcher extends Matcher {
  constructor() {
    super({ children: [labeled('success_log', new OpMatcher(TGBTC_MINT_EVENT)), labeled('jetton_mint', new TypeMatcher('jetton_mint'))] });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, TGBTC_MINT_TAIL);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const log = getLabeled('success_log', others);
    const mint = getLabeled('jetton_mint', others);
    if (!log || !mint || mint.type !== 'jetton_mint') return [];
    const collected = new Set<Block>([block, log, mint, ...others]);
    let head: Block | null = null;
    let cur = block;
    for (let i = 0; i < 20; i++) {
      const p = cur.previous;
      if (!p) break;
      collected.add(p);
      for (const c of p.children) if (c !== cur) collected.add(c);
      cur = p;
      if (isCall(cur, TGBTC_MINT_HEAD)) {
        head = cur;
        break;
      }
    }
    if (head === null) return [];
    const ev = loadTgBtcMintEvent(log.body());
    const nb = new Block('tgbtc_mint', [], {
      sender: head.message.source,
      recipient: ev.recipient,
      amount: ev.amount,
      asset: mint.data.asset,
      bitcoinTxid: txidHex(ev.bitcoinTxid),
      success: true,
      recipientWallet: mint.data.toWallet,
      teleport: log.message.source,
      crippled: false,
    });
    nb.mergeBlocks([...collected]);
    return [nb];
  }
}

const pegoutChildren = (): Matcher[] => [
  labeled('tgbtc_burn_log', new OpMatcher(TGBTC_BURN_EVENT)),
  new OpMatcher(TGBTC_PEGOUT, { optional: true, children: [new OpMatcher(TGBTC_PEGOUT_NEXT, { optional: true }), new TypeMatcher('ton_transfer', { optional: true })] }),
];

class TgBtcBurnMatcher extends Matcher {
  constructor() {
    super({
      child: new OrMatcher([
        new OpMatcher(JETTON_BURN_NOTIFICATION, { children: pegoutChildren() }),
        new OpMatcher(TGBTC_BURN_ALT_NOTIFICATION, { children: pegoutChildren() }),
      ]),
    });
  }
  override testSelf(b: Block): boolean {
    return b.type === 'jetton_burn';
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const log = getLabeled('tgbtc_burn_log', others);
    if (!log) return [];
    const ev = loadTgBtcBurnEvent(log.body());
    let amount: bigint = block.data.amount;
    amount = !amount ? ev.amount : amount < ev.amount ? amount : ev.amount;
    const nb = new Block('tgbtc_burn', [], { sender: block.data.owner, jettonWallet: block.data.jettonWallet, asset: block.data.asset, amount, pegout: ev.pegout, crippled: false });
    nb.mergeBlocks([...others, block]);
    return [nb];
  }
}

class TgBtcNewKeyMatcher extends Matcher {
  constructor() {
    super({
      parent: new PredicateMatcher(() => true, { child: labeled('dkg_completed_log', new OpMatcher(TGBTC_DKG_COMPLETED_EVENT)) }),
      children: [
        labeled('new_key_log', new OpMatcher(TGBTC_NEW_KEY_EVENT)),
        new OpMatcher(TGBTC_PEGOUT, { optional: true, children: [new OpMatcher(TGBTC_PEGOUT_NEXT, { optional: true }), new TypeMatcher('ton_transfer', { optional: true })] }),
      ],
    });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, TGBTC_NEW_KEY_REQUEST);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const dkg = getLabeled('dkg_completed_log', others);
    const nk = getLabeled('new_key_log', others);
    if (!dkg || !nk) return [];
    const d = loadTgBtcDkgCompleted(dkg.body());
    const k = loadTgBtcNewKeyEvent(nk.body());
    const nb = new Block('tgbtc_new_key', [], {
      teleport: dkg.message.source,
      coordinator: nk.message.source,
      pubkey: k.pubkey.toString(16),
      pegout: k.pegout,
      timestamp: d.timestamp,
      amount: k.amount,
      crippled: false,
    });
    nb.mergeBlocks([...others, block]);
    return [nb];
  }
}

/** A log alone: its event, marked as a fallback. */
class LogOnlyMatcher extends Matcher {
  constructor(
    private readonly op: number,
    private readonly make: (b: Block) => Block,
  ) {
    super();
  }
  override testSelf(b: Block): boolean {
    return isCall(b, this.op);
  }
  override build(block: Block): Block[] | null {
    const nb = this.make(block);
    nb.mergeBlocks([block]);
    return [nb];
  }
}

export const tgbtcFamily: Family = {
  matchers: () => [
    [550, new TgBtcMintMatcher()],
    [560, new TgBtcBurnMatcher()],
    [570, new TgBtcNewKeyMatcher()],
    [
      580,
      new LogOnlyMatcher(TGBTC_MINT_EVENT, (b) => {
        const ev = loadTgBtcMintEvent(b.body());
        const src = b.message.source;
        return new Block('tgbtc_mint', [], { crippled: true, sender: src, recipient: ev.recipient, amount: ev.amount, asset: null, bitcoinTxid: txidHex(ev.bitcoinTxid), success: true, recipientWallet: null, teleport: src });
      }),
    ],
    [
      590,
      new LogOnlyMatcher(TGBTC_BURN_EVENT, (b) => {
        const ev = loadTgBtcBurnEvent(b.body());
        return new Block('tgbtc_burn', [], { crippled: true, sender: ev.sender, jettonWallet: null, asset: null, amount: ev.amount, pegout: ev.pegout });
      }),
    ],
    [
      600,
      new LogOnlyMatcher(TGBTC_NEW_KEY_EVENT, (b) => {
        const ev = loadTgBtcNewKeyEvent(b.body());
        return new Block('tgbtc_new_key', [], { crippled: true, coordinator: b.message.source, pubkey: ev.pubkey.toString(16), pegout: ev.pegout, amount: ev.amount, teleport: null, timestamp: null });
      }),
    ],
    [
      610,
      new LogOnlyMatcher(TGBTC_DKG_COMPLETED_EVENT, (b) => {
        const ev = loadTgBtcDkgCompleted(b.body());
        return new Block('tgbtc_dkg_log', [], { coordinator: b.message.source, timestamp: ev.timestamp, pubkey: ev.pubkey.toString(16) });
      }),
    ],
  ],
  fillers: [
    [
      'tgbtc_mint',
      (b, row) => {
        const d = b.data;
        row.type = d.crippled ? 'tgbtc_mint_fallback' : 'tgbtc_mint';
        row.source = d.sender;
        row.destination = d.recipient;
        row.amount = d.amount;
        row.asset = d.asset;
        row.success = d.success;
        row.asset_secondary = d.bitcoinTxid;
        row.source_secondary = d.teleport;
        row.destination_secondary = d.recipientWallet;
      },
    ],
    [
      'tgbtc_burn',
      (b, row) => {
        const d = b.data;
        row.type = d.crippled ? 'tgbtc_burn_fallback' : 'tgbtc_burn';
        row.source = d.sender;
        row.source_secondary = d.jettonWallet;
        row.destination = d.pegout;
        row.amount = d.amount;
        row.asset = d.asset;
      },
    ],
    [
      'tgbtc_new_key',
      (b, row) => {
        const d = b.data;
        row.type = d.crippled ? 'tgbtc_new_key_fallback' : 'tgbtc_new_key';
        row.source = d.teleport;
        row.source_secondary = d.pubkey;
        row.destination = d.coordinator;
        row.destination_secondary = d.pegout;
        row.amount = d.amount;
        row.value = d.timestamp;
      },
    ],
    [
      'tgbtc_dkg_log',
      (b, row) => {
        row.type = 'tgbtc_dkg_log_fallback';
        row.source = b.data.coordinator;
        row.asset = b.data.pubkey;
        row.value = b.data.timestamp;
      },
    ],
  ],
};
