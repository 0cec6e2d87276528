import { Block } from './block.js';
import { isCall } from './basic.js';
import type { Family } from './classify.js';
import { Matcher, OpMatcher, getLabeled, labeled } from './matcher.js';

/**
 * Validator elections (elector-code.fc): `new_stake#4e73744b` to the elector, confirmed by `#f374484c`, and
 * `recover_stake#47657424`, answered by `#f96f7324` with the recovered stake.
 */
const ELECTOR = '-1:3333333333333333333333333333333333333333333333333333333333333333';
const NEW_STAKE = 0x4e73744b;
const NEW_STAKE_CONFIRMATION = 0xf374484c;
const RECOVER_STAKE = 0x47657424;
const RECOVER_STAKE_RESPONSE = 0xf96f7324;

class ElectionMatcher extends Matcher {
  constructor(
    private readonly op: number,
    confirmation: number,
    private readonly type: 'election_deposit' | 'election_recover',
  ) {
    super({ child: labeled('confirmation', new OpMatcher(confirmation, { optional: true, includeExcess: false })), includeExcess: false });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, this.op) && b.message.destination === ELECTOR;
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const confirmation = getLabeled('confirmation', others);
    const holder = block.message.source;
    let amount: bigint | null;
    if (this.type === 'election_deposit') amount = BigInt(block.message.value ?? 0);
    else amount = confirmation ? BigInt(confirmation.message.value ?? 0) : null;
    const nb = new Block(this.type, [], { holder, amount });
    nb.failed = confirmation === null;
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

const fillElection = (b: Block, row: import('./row.js').ActionRow): void => {
  row.source = b.data.holder;
  row.amount = b.data.amount;
};

export const electionsFamily: Family = {
  matchers: () => [
    [340, new ElectionMatcher(NEW_STAKE, NEW_STAKE_CONFIRMATION, 'election_deposit')],
    [350, new ElectionMatcher(RECOVER_STAKE, RECOVER_STAKE_RESPONSE, 'election_recover')],
  ],
  fillers: [
    ['election_deposit', fillElection],
    ['election_recover', fillElection],
  ],
};
