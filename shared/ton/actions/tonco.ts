import { EXCESSES } from './matcher.js';
import { TONCO_POOL_INIT, TONCO_ROUTER_CREATE_POOL, loadToncoCreatePool, loadToncoPoolInitActive } from '../bodies/ToncoPool.js';
import { Block } from './block.js';
import { isCall } from './basic.js';
import type { Family } from './classify.js';
import { Matcher, OpMatcher, getLabeled, labeled } from './matcher.js';

/** TONCO: pool deployment (router create_pool → pool init). */
class ToncoDeployPoolMatcher extends Matcher {
  constructor() {
    super({ child: labeled('init_pool', new OpMatcher(TONCO_POOL_INIT, { child: labeled('excesses', new OpMatcher(EXCESSES, { optional: true })) })) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, TONCO_ROUTER_CREATE_POOL);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const c = loadToncoCreatePool(block.body());
    const init = getLabeled('init_pool', others);
    if (!init) return [];
    const active = loadToncoPoolInitActive(init.body());
    const excesses = getLabeled('excesses', others);
    const nb = new Block('tonco_deploy_pool', [], {
      deployer: block.message.source,
      router: block.message.destination,
      pool: init.message.destination,
      ...c,
      poolActive: active,
    });
    nb.mergeBlocks(excesses ? [block, init, excesses] : [block, init]);
    return [nb];
  }
}

export const toncoFamily: Family = {
  matchers: () => [[630, new ToncoDeployPoolMatcher()]],
  fillers: [
    [
      'tonco_deploy_pool',
      (b, row) => {
        const d = b.data;
        row.success = true;
        row.source = d.deployer;
        row.destination = d.router;
        row.destination_secondary = d.pool;
        row.tonco_deploy_pool_data = {
          jetton0_router_wallet: d.wallet0,
          jetton1_router_wallet: d.wallet1,
          jetton0_minter: d.minter0,
          jetton1_minter: d.minter1,
          tick_spacing: d.tickSpacing,
          initial_price_x96: d.initialPriceX96,
          protocol_fee: d.protocolFee,
          lp_fee_base: d.lpFeeBase,
          lp_fee_current: d.lpFeeCurrent,
          pool_active: d.poolActive,
        };
      },
    ],
  ],
};
