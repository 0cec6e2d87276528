import type { Block } from './block.js';
import type { Filler } from './row.js';

/** Rows of the basic types and the jetton family (S.5 "Basic", "Jettons"). */
export const basicFillers: [string, Filler][] = [
  ['call_contract', fillCall],
  ['contract_deploy', (b, row) => {
    fillCall(b, row);
    row.value_extra_currencies = {};
  }],
  [
    'ton_transfer',
    (b, row) => {
      row.value = b.data.value;
      row.source = b.data.source;
      row.destination = b.data.destination;
      row.ton_transfer_data = { content: b.data.comment, encrypted: b.data.encrypted };
      row.value_extra_currencies = b.data.extraCurrencies ?? {};
    },
  ],
  ['tick_tock', (b, row) => void (row.source = b.data.account)],
  [
    'jetton_transfer',
    (b, row) => {
      const d = b.data;
      row.source = d.sender;
      row.source_secondary = d.senderWallet;
      row.destination = d.receiver;
      row.destination_secondary = d.receiverWallet;
      row.amount = d.amount;
      row.asset = d.asset;
      row.jetton_transfer_data = {
        query_id: d.queryId,
        response_destination: d.response,
        forward_amount: d.forwardAmount,
        custom_payload: d.customPayload,
        forward_payload: d.forwardPayload,
        comment: d.comment,
        is_encrypted_comment: d.encryptedComment,
      };
    },
  ],
  [
    'jetton_burn',
    (b, row) => {
      row.source = b.data.owner;
      row.source_secondary = b.data.jettonWallet;
      row.asset = b.data.asset;
      row.amount = b.data.amount;
    },
  ],
  [
    'jetton_mint',
    (b, row) => {
      row.destination = b.data.to;
      row.destination_secondary = b.data.toWallet;
      row.asset = b.data.asset;
      row.amount = b.data.amount;
      row.value = b.data.tonAmount;
    },
  ],
];

function fillCall(b: Block, row: Parameters<Filler>[1]): void {
  row.opcode = b.data.opcode;
  row.value = b.data.value;
  row.source = b.data.source;
  row.destination = b.data.destination;
  row.value_extra_currencies = b.data.extraCurrencies ?? {};
}
