import { Classifier, type Family, jettonFamily } from './classify.js';
import type { InterfaceRepository } from './interfaces.js';
import { nftFamily } from './nft.js';
import { swapFamily } from './swaps.js';
import { tgbtcFamily } from './tgbtc.js';
import { jvaultFamily } from './jvault.js';
import { evaaFamily } from './evaa.js';
import { cocoonFamily } from './cocoon.js';
import { vestingFamily } from './vesting.js';
import { stakingFamily } from './staking.js';
import { dedustLiquidityFamily } from './dedust-liquidity.js';
import { ethenaFamily } from './ethena.js';
import { toncoFamily } from './tonco.js';
import { coffeeFamily } from './coffee.js';
import { electionsFamily } from './elections.js';
import { subscriptionsFamily } from './subscriptions.js';
import { dnsFamily } from './dns.js';
import { stonfiLiquidityFamily } from './stonfi-liquidity.js';
import { layerzeroFamily } from './layerzero.js';
import { marketplaceFamily } from './marketplace.js';
import { multisigFamily } from './multisig.js';
import { auctionFamily } from './auctions.js';

export { Classifier, type Family } from './classify.js';
export type { ActionRow } from './row.js';
export { rowToJson } from './row.js';
export type { InterfaceRepository, AccountInterfaces } from './interfaces.js';
export type { Trace } from './trace.js';
export { parseCorpusTrace, CorpusFormatError } from './corpus.js';
export { ACTION_TYPE_SHORTCUTS, actionsForClient, expandActionTypes } from './versioning.js';

/** Every family of TON Center's classifier that is implemented, in no particular order (ranks order them). */
export const ALL_FAMILIES: Family[] = [jettonFamily, nftFamily, swapFamily, tgbtcFamily, jvaultFamily, evaaFamily, cocoonFamily, vestingFamily, stakingFamily, dedustLiquidityFamily, ethenaFamily, toncoFamily, coffeeFamily, electionsFamily, subscriptionsFamily, dnsFamily, stonfiLiquidityFamily, layerzeroFamily, marketplaceFamily, multisigFamily, auctionFamily];

/** A classifier with every family, answering interface questions from `repo`. */
export function createClassifier(repo: InterfaceRepository): Classifier {
  return new Classifier(repo, ALL_FAMILIES);
}
