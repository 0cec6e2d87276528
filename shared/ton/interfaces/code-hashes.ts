/**
 * Contract codes known by their hash: the representation hash of the code cell (the account's `code_hash`), hex.
 *
 * Where the entries come from (and what checks them, interfaces.test.ts):
 * - codes compiled by their authors, as fixtures (`contracts/*.code.boc`, MANIFEST.md names each one's repository
 *   and states its hash): the test hashes each BOC and compares with MANIFEST.md and with this table;
 * - tongo's interface table (`contracts/tongo_interface_code_hashes.json`): codes deployed on mainnet that are not
 *   fixtures (jetton wallets as deployed, the multisig v2 build, DEX contracts); the test compares every tongo entry
 *   listed here with the JSON;
 * - indexing-semantics §5.1 (vesting) and §5.5 (the eleven wallets).
 * - the mainnet TON DNS item, by the hash TON Center's classifier names (account-facts.test.ts checks the transcription).
 * DeDust and STON.fi pools and routers are not here: TON Center recognises DeDust pools by a fixed list of three
 * hashes checked against the factory, and neither that list nor STON.fi's codes are among the references.
 *
 * `name` is the interface name as TON Center's address book or tongo spells it; `kind` is what the classifier and
 * the token stage ask for.
 */

export type InterfaceKind =
  | 'wallet'
  | 'highload_wallet'
  | 'special_wallet'
  | 'vesting'
  | 'lockup'
  | 'jetton_master'
  | 'jetton_wallet'
  | 'nft_collection'
  | 'nft_item'
  | 'nft_sale'
  | 'nft_auction'
  | 'nft_offer'
  | 'nft_marketplace'
  | 'dns_collection'
  | 'dns_item'
  | 'multisig'
  | 'multisig_order'
  | 'dex_pool'
  | 'dex_router'
  | 'dex_other'
  | 'payment_channel'
  | 'subscription';

export interface KnownCode {
  /** Code hash, lower-case hex. */
  codeHash: string;
  name: string;
  kind: InterfaceKind;
  /** Where the hash is stated: a fixture file, `tongo`, or a reference section. */
  source: string;
}

const fx = (file: string): string => `fixtures contracts/${file}`;

export const KNOWN_CODES: readonly KnownCode[] = [
  // Wallets (indexing-semantics §5.5; fixtures compiled by tonutils-go; tongo).
  { codeHash: 'a0cfc2c48aee16a271f2cfc0b7382d81756cecb1017d077faaab3bb602f6868c', name: 'wallet_v1r1', kind: 'wallet', source: fx('wallet_v1r1.code.boc') },
  { codeHash: 'd4902fcc9fad74698fa8e353220a68da0dcf72e32bcb2eb9ee04217c17d3062c', name: 'wallet_v1r2', kind: 'wallet', source: fx('wallet_v1r2.code.boc') },
  { codeHash: '587cc789eff1c84f46ec3797e45fc809a14ff5ae24f1e0c7a6a99cc9dc9061ff', name: 'wallet_v1r3', kind: 'wallet', source: fx('wallet_v1r3.code.boc') },
  { codeHash: '5c9a5e68c108e18721a07c42f9956bfb39ad77ec6d624b60c576ec88eee65329', name: 'wallet_v2r1', kind: 'wallet', source: fx('wallet_v2r1.code.boc') },
  { codeHash: 'fe9530d3243853083ef2ef0b4c2908c0abf6fa1c31ea243aacaa5bf8c7d753f1', name: 'wallet_v2r2', kind: 'wallet', source: fx('wallet_v2r2.code.boc') },
  { codeHash: 'b61041a58a7980b946e8fb9e198e3c904d24799ffa36574ea4251c41a566f581', name: 'wallet_v3r1', kind: 'wallet', source: fx('wallet_v3r1.code.boc') },
  { codeHash: '84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599', name: 'wallet_v3r2', kind: 'wallet', source: fx('wallet_v3r2.code.boc') },
  { codeHash: '64dd54805522c5be8a9db59cea0105ccf0d08786ca79beb8cb79e880a8d7322d', name: 'wallet_v4r1', kind: 'wallet', source: fx('wallet_v4r1.code.boc') },
  { codeHash: 'feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0', name: 'wallet_v4r2', kind: 'wallet', source: fx('wallet_v4r2.code.boc') },
  { codeHash: 'f3d7ca53493deedac28b381986a849403cbac3d2c584779af081065af0ac4b93', name: 'wallet_v5_beta', kind: 'wallet', source: fx('wallet_v5_beta_libref.code.boc') },
  { codeHash: 'e4cf3b2f4c6d6a61ea0f2b5447d266785b26af3637db2deee6bcd1aa826f3412', name: 'wallet_v5_beta', kind: 'wallet', source: 'tongo' },
  { codeHash: '20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f', name: 'wallet_v5r1', kind: 'wallet', source: fx('wallet_v5r1.code.boc') },
  // Highload and special wallets: interfaces, not wallets for walletStates (indexing-semantics §5.5).
  { codeHash: 'd8cdbbb79f2c5caa677ac450770be0351be21e1250486de85cc52aa33dd16484', name: 'wallet_highload_v1r1', kind: 'highload_wallet', source: 'tongo' },
  { codeHash: '0dceed21269d66013e95b19fbb5c55a6f01adad40837baa8e521cde3a02aa46c', name: 'wallet_highload_v1r2', kind: 'highload_wallet', source: 'tongo' },
  { codeHash: '9494d1cc8edf12f05671a1a9ba09921096eb50811e1924ec65c3c629fbb80812', name: 'wallet_highload_v2', kind: 'highload_wallet', source: fx('highload_wallet_v2_verified.code.boc') },
  { codeHash: '8ceb45b3cd4b5cc60eaae1c13b9c092392677fe536b2e9b2d801b62eff931fe1', name: 'wallet_highload_v2r1', kind: 'highload_wallet', source: 'tongo' },
  { codeHash: '203dd4f358adb49993129aa925cac39916b68a0e4f78d26e8f2c2b69eafa5679', name: 'wallet_highload_v2r2', kind: 'highload_wallet', source: fx('highload_wallet_v2r2.code.boc') },
  { codeHash: '11acad7955844090f283bf238bc1449871f783e7cc0979408d3f4859483e8525', name: 'wallet_highload_v3r1', kind: 'highload_wallet', source: fx('highload_wallet_v3.code.boc') },
  { codeHash: '45ebbce9b5d235886cb6bfe1c3ad93b708de058244892365c9ee0dfe439cb7b5', name: 'wallet_preprocessed_v2', kind: 'special_wallet', source: 'tongo' },
  { codeHash: '14dbe27de307b26faf75361dc5429d1a14b5288f9a82ce08727513c02835e4f7', name: 'mytonwallet_2fa', kind: 'special_wallet', source: 'tongo' },
  { codeHash: 'c5ef19df22aee8b707bd7a181174e400a4225223c5ae40d8320f5ddd707d34a1', name: 'tonkeeper_2fa', kind: 'special_wallet', source: 'tongo' },
  { codeHash: 'b48b531abec3b714638291f7d77ed6dc9f6a2729efca20477137374d4ae8b590', name: 'wallet_vesting', kind: 'vesting', source: fx('vesting_wallet.code.boc') },
  { codeHash: '88fbf818e47d5f328f7dc34bad4323bb28a12ec6c75ce9ec25d77746c56e1ded', name: 'wallet_lockup_v1', kind: 'lockup', source: fx('lockup_wallet_v1.code.boc') },
  // Jettons (TEP-74). tongo's jetton_wallet_v1/v2 are older builds than the tonweb and jetton-contract ones here; on-chain USDT wallets (governed) are another build than the stablecoin fixture (MANIFEST.md).
  { codeHash: '0c6a4d140c456f491b1f8e54eaa98c2ab1182422dbe7d8d5aa7a8cdacb16b83d', name: 'jetton_master_v2', kind: 'jetton_master', source: fx('jetton_minter_v2_official.code.boc') },
  { codeHash: 'f95ba0330b38cdf3459b1e811e5fc6fa6cfee566d7b764455c0468140365a737', name: 'jetton_master_discoverable', kind: 'jetton_master', source: fx('jetton_minter_tonweb_discoverable.code.boc') },
  { codeHash: '7c00d788e9d301dda2ef454ceadeb9f405242d1cf627563e469c303e354c7cb1', name: 'jetton_master_governed', kind: 'jetton_master', source: fx('stablecoin_jetton_minter.code.boc') },
  { codeHash: '1ead271435514580d2db7399a17fe40839d50e20d005162c5b3bd002b805b1fc', name: 'jetton_wallet_v2', kind: 'jetton_wallet', source: fx('jetton_wallet_v2_official.code.boc') },
  { codeHash: '4adf48135cb575adbaed476799c87ff2904269b1f949ada4d0479e9104b6f217', name: 'jetton_wallet', kind: 'jetton_wallet', source: fx('jetton_wallet_tonweb_standard.code.boc') },
  { codeHash: '8f452d7a4dfd74066b682365177259ed05734435be76b5fd4bd5d8af2b7c3d68', name: 'jetton_wallet_governed', kind: 'jetton_wallet', source: fx('stablecoin_jetton_wallet.code.boc') },
  { codeHash: 'beb0683ebeb8927fe9fc8ec0a18bc7dd17899689825a121eab46c5a3a860d0ce', name: 'jetton_wallet_v1', kind: 'jetton_wallet', source: 'tongo' },
  { codeHash: '8d28ea421b77e805fea52acf335296499f03aec8e9fd21ddb5f2564aa65c48de', name: 'jetton_wallet_v2', kind: 'jetton_wallet', source: 'tongo' },
  { codeHash: '89468f02c78e570802e39979c8516fc38df07ea76a48357e0536f2ba7b3ee37b', name: 'jetton_wallet_governed', kind: 'jetton_wallet', source: 'tongo' },
  { codeHash: 'e9aa0c02aafd5b38a295cc489019882439cf35c9738cc6dbeece4403dd066a5a', name: 'jetton_wallet_regulated', kind: 'jetton_wallet', source: 'tongo' },
  // NFTs (TEP-62) and their marketplaces. Names of sales, auctions and offers as tongo gives them.
  { codeHash: '64bb2d4661b5f2dc1a83bf5cbbe09e92ac0b460a1b879a5519386fca4c348bca', name: 'nft_collection', kind: 'nft_collection', source: fx('nft_collection_tonweb_standard.code.boc') },
  { codeHash: '4c9123828682fa6f43797ab41732bca890cae01766e0674100250516e0bf8d42', name: 'nft_item_simple', kind: 'nft_item', source: fx('nft_item_tonweb_standard.code.boc') },
  { codeHash: '959fc9a86b4b2436a1256ee1c02a58481a58488df91ecdd6c186d580b00be40a', name: 'nft_item_single', kind: 'nft_item', source: fx('getgems_nft_single.code.boc') },
  { codeHash: 'dd24e54caaa1a2b8e70514fc39bfc4cbc4b1543ca74d2cc6fc0eb35429e1b9d5', name: 'nft_sale', kind: 'nft_sale', source: fx('nft_sale_tonweb.code.boc') },
  { codeHash: '8278f4c5233de6fbedc969af519344a7a9bffc544856dba986a95c0bcf8571c9', name: 'nft_sale_getgems_v2', kind: 'nft_sale', source: fx('getgems_nft_fix_price_sale_v2.code.boc') },
  { codeHash: '32050dfac44f64866bcc86f2cd9e1305fe9dcadb3959c002237cfb0902d44323', name: 'nft_sale_getgems_v3', kind: 'nft_sale', source: fx('getgems_nft_fix_price_sale_v3.code.boc') },
  { codeHash: 'deb53b6c5765c1e6cd238bf47bc5e83ba596bdcc04b0b84cd50ab1e474a08f31', name: 'nft_sale_getgems_v3', kind: 'nft_sale', source: fx('getgems_nft_fix_price_sale_v3_r2.code.boc') },
  { codeHash: '24221fa571e542e055c77bedfdbf527c7af460cfdc7f344c450787b4cfa1eb4d', name: 'nft_sale_getgems_v3', kind: 'nft_sale', source: fx('getgems_nft_fix_price_sale_v3_r3.code.boc') },
  { codeHash: '6b95a6418b9c9d2359045d1e7559b8d549ae0e506f24caab58fa30c8fb1feb86', name: 'nft_sale_getgems_v4', kind: 'nft_sale', source: fx('getgems_nft_fix_price_sale_v4_r1.code.boc') },
  { codeHash: '6668872fa79705443ffd47523e8e9ea9f76ab99f9a0b59d27de8f81a1c27b9d4', name: 'nft_auction_getgems_v3', kind: 'nft_auction', source: fx('getgems_nft_auction_v2.code.boc') },
  { codeHash: '1bd9c5a39bffb7a0f341588b5dd92b813a842bf65ef14109382200ceaf8f72df', name: 'nft_auction_getgems_v3', kind: 'nft_auction', source: fx('getgems_nft_auction_v3_r2.code.boc') },
  { codeHash: 'bb6f62ade0feb2d79fab3b8aebf0930af98553df60093b2027f0a8bf169bfcec', name: 'nft_auction_getgems_v3', kind: 'nft_auction', source: fx('getgems_nft_auction_v3_r3.code.boc') },
  { codeHash: 'ce5a78534eaaa6ceed8dafd486d076eb60a9b0d6dbfb53676f662649c0689956', name: 'nft_auction_getgems_v4', kind: 'nft_auction', source: fx('getgems_nft_auction_v4_r1.code.boc') },
  { codeHash: '7aa13161df5469acb9daab5ad3b9cb14a2c9754395e6355ccdb8dded6482092b', name: 'nft_offer_getgems', kind: 'nft_offer', source: fx('getgems_nft_offer.code.boc') },
  { codeHash: '6e5d667fa6efa8187c6d029efd4015601232fd2e36c291dbc346dedab6dc8024', name: 'nft_offer_getgems_v1', kind: 'nft_offer', source: fx('getgems_nft_offer_v1_r3.code.boc') },
  { codeHash: '76c11e701480f7a66d6368d0e7b570f4f9119f2338568f9d63ff8d12ebf8a0f7', name: 'nft_marketplace', kind: 'nft_marketplace', source: fx('nft_marketplace_tonweb.code.boc') },
  // TON DNS (ton4j's compiled root collection and item).
  { codeHash: 'c45a70715e226a2aafa76c7781f3ced852aa044a3eb52b9097341761846a4125', name: 'dns_collection', kind: 'dns_collection', source: fx('dns_collection_ton4j.code.boc') },
  { codeHash: '3f0ab9253170c86aaeebfeabb2de0bc2d35b4c854a98ea37dc2cdffde8f4e811', name: 'dns_item', kind: 'dns_item', source: fx('dns_item_ton4j.code.boc') },
  // The mainnet .ton item, as TON Center's classifier recognises DNS items (events/blocks/auction.py DNS_CODE_HASH).
  { codeHash: '8b5ffc9ebfd39064d8d5f56e4659c826bb7593923f5ca48728be4d60af6f51f9', name: 'dns_item', kind: 'dns_item', source: 'toncenter DNS_CODE_HASH' },
  // Multisig v2: the fixture is the build with its order code as a library reference, tongo's the deployed one.
  { codeHash: '77cd68912cd5e23ecf749d92282f924da209a7e738a11746b376c7baf1b92e83', name: 'multisig_v2', kind: 'multisig', source: fx('multisig_v2.code.boc') },
  { codeHash: 'd3d14da9a627f0ec3533341829762af92b9540b21bf03665fac09c2b46eabbac', name: 'multisig_v2', kind: 'multisig', source: 'tongo' },
  { codeHash: '23b9ba6915778fa1d5605a830d78bc22e9808524c04a51ce7b9c3db72ca9e908', name: 'multisig_order_v2', kind: 'multisig_order', source: fx('multisig_v2_order.code.boc') },
  { codeHash: 'a01e057fbd4288402b9898d78d67bd4e90254c93c5866879bc2d1d12865436bc', name: 'multisig_order_v2', kind: 'multisig_order', source: 'tongo' },
  // DEX contracts whose codes tongo states.
  { codeHash: 'bc947d16346c2fdc845b7a446382f59c86acb075e2a31dbfa956cd0c9e54678e', name: 'tonco_pool', kind: 'dex_pool', source: 'tongo' },
  { codeHash: '9b9891eaa7db7becc6ccdda1bd9a8d25dc3df2817d57e4b27ec003daf81a4439', name: 'tonco_router', kind: 'dex_router', source: 'tongo' },
  { codeHash: 'fea9c6a1ef5eab2c5ca94d6bef1e33994c5786abeb5264760e150da33bfb3677', name: 'coffee_cross_dex', kind: 'dex_router', source: 'tongo' },
  { codeHash: 'a63cbf47d55370fe2baebb4bf284bd401e717db4a0ab0e49f4b3b3cc7c0f5652', name: 'coffee_cross_dex', kind: 'dex_router', source: 'tongo' },
  { codeHash: '58fbc2dba2684d38b80bfce3dc5a9ffce00af9b464c7b4dc21cf57e3aae11f1c', name: 'coffee_mev_protector', kind: 'dex_other', source: 'tongo' },
  { codeHash: 'd7c38fa994a8282657209f93ebc5dfe908a5f06d2e41f0c085e917bc4f54a2b3', name: 'jetton_wallet_coffee_lp', kind: 'jetton_wallet', source: 'tongo' },
  { codeHash: 'd04737d6f678103a9e448c22109919d0f9cbe05ef1b1a83c5e7b886683a54704', name: 'moon_order_factory', kind: 'dex_router', source: 'tongo' },
  { codeHash: '88c38d29586b5d748badbc7b4dbfe239c25cb85ca9c4586a44e05507a6edf6a6', name: 'moon_order', kind: 'dex_other', source: 'tongo' },
  { codeHash: 'ee07140b3ccfe261ed28580f60a16bda4c4b9c6d7da7ae05f5b7c7e2b1dfe226', name: 'moon_order', kind: 'dex_other', source: 'tongo' },
  { codeHash: 'ce84c382c8b6ac0d05212bbaa34d05e54e1e30e2cc9289f2d9c9d64726a112a8', name: 'moon_booster', kind: 'dex_other', source: 'tongo' },
  { codeHash: 'edcc62f1752297fbda2408c09ca420b3af9528102e33b9e0a0ebe38553c18fec', name: 'omniston_referral', kind: 'dex_other', source: 'tongo' },
  { codeHash: '6cda351c3c0ee368873a5ea10f53b9a47a55aacdc8deb3fd103c2f968c952527', name: 'omniston_referral', kind: 'dex_other', source: 'tongo' },
  { codeHash: 'e82ca5b820228565747a837c7634bef30bb48f5297937b2141fe5f6118ffaa4c', name: 'omniston_referral', kind: 'dex_other', source: 'tongo' },
  { codeHash: 'fc8df8be21d83d3876984d7859c078c916dfd7654bc465bf9cd64602eeb4c587', name: 'omniston_referral', kind: 'dex_other', source: 'tongo' },
  // Payments.
  { codeHash: '41f5b77f02d4a96eb465197215ed00923720a6c731fa32934f9c0e80ffb85589', name: 'payment_channel', kind: 'payment_channel', source: fx('payment_channel_tonweb.code.boc') },
  { codeHash: '52161446bb3e6f811f3ceb163c8be33710fe41086c3a047ee928c2d94743fc2d', name: 'subscription_v1', kind: 'subscription', source: fx('subscription_v1_tonweb.code.boc') },
  { codeHash: '48942963827c5147fe935cd22e88ba418011fe656eab78b79c5c6343d84d421a', name: 'subscription_v2', kind: 'subscription', source: 'tongo' },
];
