import {
  VESTING_ADD_WHITELIST,
  VESTING_ADD_WHITELIST_RESPONSE,
  VESTING_SEND_MESSAGE,
  VESTING_SEND_MESSAGE_RESPONSE,
  loadVestingAddWhitelist,
  loadVestingSendMessage,
} from '../bodies/Vesting.js';
import { cellToBocBase64 } from '../bodies/cell.js';
import { Block } from './block.js';
import { isCall } from './basic.js';
import type { Family } from './classify.js';
import { Matcher, OpMatcher, getLabeled, labeled } from './matcher.js';

/** Vesting wallets: a message sent through the vesting wallet, and additions to its whitelist. */
class VestingMatcher extends Matcher {
  constructor(
    private readonly op: number,
    response: number,
    private readonly make: (b: Block) => Block,
  ) {
    super({ child: labeled('response', new OpMatcher(response)) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, this.op);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const nb = this.make(block);
    const resp = getLabeled('response', others);
    nb.mergeBlocks(resp ? [block, resp] : [block]);
    return [nb];
  }
}

export const vestingFamily: Family = {
  matchers: () => [
    [
      100,
      new VestingMatcher(VESTING_SEND_MESSAGE, VESTING_SEND_MESSAGE_RESPONSE, (b) => {
        const s = b.body();
        const m = loadVestingSendMessage(s);
        return new Block('vesting_send_message', [], {
          sender: b.message.source,
          vesting: b.message.destination,
          queryId: m.queryId,
          messageBoc: cellToBocBase64(s.boc, m.message, false),
          destination: m.destination,
          value: m.value,
        });
      }),
    ],
    [
      110,
      new VestingMatcher(VESTING_ADD_WHITELIST, VESTING_ADD_WHITELIST_RESPONSE, (b) => {
        const m = loadVestingAddWhitelist(b.body());
        return new Block('vesting_add_whitelist', [], { adder: b.message.source, vesting: b.message.destination, queryId: m.queryId, added: m.addresses });
      }),
    ],
  ],
  fillers: [
    [
      'vesting_send_message',
      (b, row) => {
        const d = b.data;
        row.source = d.sender;
        row.destination = d.vesting;
        row.destination_secondary = d.destination;
        row.amount = d.value;
        row.vesting_send_message_data = { query_id: d.queryId, message_boc: d.messageBoc };
      },
    ],
    [
      'vesting_add_whitelist',
      (b, row) => {
        const d = b.data;
        row.source = d.adder;
        row.destination = d.vesting;
        row.vesting_add_whitelist_data = { query_id: d.queryId, accounts_added: d.added };
      },
    ],
  ],
};
