import {
  LZ,
  type LzPacket,
  loadLzChannelCommitPacket,
  loadLzChannelSendCallback,
  loadLzReceiveExecutePacket,
  loadLzVerifyCallback,
} from '../bodies/LayerZero.js';
import { Block } from './block.js';
import { isCall } from './basic.js';
import type { Family } from './classify.js';
import { JettonTransferBlock } from './jettons.js';
import { Matcher, OpMatcher, TypeMatcher, getLabeled, labeled } from './matcher.js';
import type { ActionRow } from './row.js';

/**
 * LayerZero v2 (TON Center `blocks/layerzero.py`): an OApp's send through endpoint → channel → ULN (and the jetton
 * transfer that paid for an OFT send), an executor's delivery to the OApp, the commit of a verified packet, a DVN's
 * verification. Each is the chain of protocol messages the contracts exchange (opcodes in bodies/LayerZero.ts).
 */

const transfer = (label: string): Matcher => labeled(label, new TypeMatcher('ton_transfer', { optional: true }));

/** `layerzero_packet_data` as TON Center stores it (the packet's fields, hex as Python prints them). */
function packetData(p: LzPacket): Record<string, unknown> {
  return { src_oapp: p.path.srcOapp, dst_oapp: p.path.dstOapp, src_eid: p.path.srcEid, dst_eid: p.path.dstEid, nonce: p.nonce, guid: p.guid, message: p.message };
}

/** OApp → endpoint `ENDPOINT_SEND`, down to the channel's callback to the OApp carrying the sent packet. */
class LayerZeroSendMatcher extends Matcher {
  constructor() {
    const oappCallback = labeled(
      'oapp_callback',
      new OpMatcher(LZ.channelSendCallback, { children: [labeled('packet_sent_event', new OpMatcher(LZ.event, { optional: true })), transfer('excess_transfer_final')] }),
    );
    const sendCallback = labeled(
      'send_callback',
      new OpMatcher(LZ.msglibSendCallback, {
        children: [
          labeled('msglib_send_callback_event', new OpMatcher(LZ.event)),
          transfer('excess_transfer_1'),
          transfer('excess_transfer_2'),
          transfer('excess_transfer_3'),
          transfer('excess_transfer_4'),
          transfer('excess_transfer_5'),
          oappCallback,
        ],
      }),
    );
    const ulnSend = labeled('uln_send', new OpMatcher(LZ.ulnSend, { child: sendCallback }));
    const msglibSend = labeled('msglib_send', new OpMatcher(LZ.msglibConnectionSend, { child: ulnSend }));
    super({ child: labeled('channel_send', new OpMatcher(LZ.channelSend, { child: msglibSend })) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, LZ.endpointSend);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const channelSend = getLabeled('channel_send', others);
    const msglibSend = getLabeled('msglib_send', others);
    const ulnSend = getLabeled('uln_send', others);
    const sendCallback = getLabeled('send_callback', others);
    const oappCallback = getLabeled('oapp_callback', others);
    if (!channelSend || !msglibSend || !ulnSend || !sendCallback || !oappCallback) return [];
    const send = loadLzChannelSendCallback(oappCallback.body());
    const nb = new Block('layerzero_send', [], {
      initiator: block.message.source,
      packet: send.packet,
      sendRequestId: send.sendRequestId,
      msglibManager: send.sendMsglibManager,
      msglib: send.sendMsglib,
      nativeFee: send.nativeFee,
      zroFee: send.zroFee,
      endpoint: block.message.destination,
      channel: channelSend.message.destination,
      uln: ulnSend.message.destination,
    });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

/** A layerzero_send whose OApp was called by a jetton transfer (an OFT send): the tokens and the send together. */
class LayerZeroSendTokensMatcher extends Matcher {
  constructor() {
    super({ parent: labeled('jetton_transfer', new TypeMatcher('jetton_transfer', { child: labeled('layerzero_event', new OpMatcher(LZ.event)) })) });
  }
  override testSelf(b: Block): boolean {
    return b.type === 'layerzero_send';
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const t = getLabeled('jetton_transfer', others);
    if (!(t instanceof JettonTransferBlock)) return [];
    const d = t.data;
    const nb = new Block('layerzero_send_tokens', [], {
      sender: d.sender,
      senderWallet: d.senderWallet,
      oapp: d.receiver,
      oappWallet: d.receiverWallet,
      asset: d.asset,
      amount: d.amount,
      send: block.data,
    });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

/** Executor → channel `LZ_RECEIVE_PREPARE`, then prepare / lock / execute with the OApp, and its callback. */
class LayerZeroReceiveMatcher extends Matcher {
  constructor() {
    const oappCallback = labeled(
      'execute_callback',
      new OpMatcher(LZ.lzReceiveExecuteCallback, { children: [labeled('event_2', new OpMatcher(LZ.event, { optional: true })), transfer('excess_transfer_2')] }),
    );
    // Both the execute and its callback carry the label `execute_callback`; the builder takes the first, the
    // execute (channel → OApp), as TON Center's does.
    const execute = labeled('execute_callback', new OpMatcher(LZ.lzReceiveExecute, { children: [labeled('even_1', new OpMatcher(LZ.event, { optional: true })), oappCallback] }));
    const lock = labeled('receive_lock', new OpMatcher(LZ.channelLzReceiveLock, { child: execute }));
    const prepare = labeled('receive_prepare', new OpMatcher(LZ.lzReceivePrepare, { child: lock }));
    super({ children: [transfer('excesses_transfer'), prepare] });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, LZ.channelLzReceivePrepare);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const execute = getLabeled('execute_callback', others);
    if (!execute) return [];
    const packet = loadLzReceiveExecutePacket(execute.body());
    const oapp = execute.message.destination;
    // TON Center keeps the action only when the packet is addressed to the executing OApp, comparing the address
    // after its `0:` with the `0x` hex of dst_oapp (which drops leading zeros).
    if (oapp === null || oapp.slice(2).toLowerCase() !== packet.path.dstOapp.slice(2).toLowerCase()) return [];
    const nb = new Block('layerzero_receive', [], { sender: block.message.source, channel: execute.message.source, oapp, packet });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

/** Executor → ULN `ULN_COMMIT_PACKET` → ULN connection → endpoint → channel, and the channel's callback. */
class LayerZeroCommitPacketMatcher extends Matcher {
  constructor() {
    const callback = labeled('msglib_callback', new OpMatcher(LZ.msglibConnectionCommitPacketCallback, { optional: true, child: transfer('excesses') }));
    const channel = labeled('channel_commit', new OpMatcher(LZ.channelCommitPacket, { children: [labeled('lz_event', new OpMatcher(LZ.event, { optional: true })), callback] }));
    const endpoint = labeled('endpoint_commit', new OpMatcher(LZ.endpointCommitPacket, { child: channel }));
    super({ child: labeled('uln_connection_commit', new OpMatcher(LZ.ulnConnectionCommitPacket, { child: endpoint })) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, LZ.ulnCommitPacket);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const ulnConnection = getLabeled('uln_connection_commit', others);
    const endpoint = getLabeled('endpoint_commit', others);
    const channel = getLabeled('channel_commit', others);
    const callback = getLabeled('msglib_callback', others);
    if (!ulnConnection || !endpoint || !channel || !callback) return [];
    const packet = loadLzChannelCommitPacket(channel.body());
    const nb = new Block('layerzero_commit_packet', [], {
      sender: block.message.source,
      // TON Center writes the ULN connection for the ULN too (layerzero.py), so both columns hold it.
      uln: ulnConnection.message.destination,
      ulnConnection: ulnConnection.message.destination,
      endpoint: endpoint.message.destination,
      channel: channel.message.destination,
      msglibConnection: callback.message.destination,
      packet,
    });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

/** A DVN's `VERIFY` → proxy → ULN → ULN connection, and the connection's verdict back. */
class LayerZeroDvnVerifyMatcher extends Matcher {
  constructor() {
    const callback = labeled('uln_verify_callback', new OpMatcher(LZ.ulnConnectionVerifyCallback, { optional: true, child: transfer('excesses') }));
    const connection = labeled('uln_connection_verify', new OpMatcher(LZ.ulnConnectionVerify, { children: [labeled('lz_event', new OpMatcher(LZ.event, { optional: true })), callback] }));
    const uln = labeled('uln_verify', new OpMatcher(LZ.ulnVerify, { child: connection }));
    super({ child: labeled('proxy_call', new OpMatcher(LZ.proxyCallContract, { child: uln })) });
  }
  override testSelf(b: Block): boolean {
    return isCall(b, LZ.dvnVerify);
  }
  override build(block: Block, others: Block[]): Block[] | null {
    const proxy = getLabeled('proxy_call', others);
    const uln = getLabeled('uln_verify', others);
    const connection = getLabeled('uln_connection_verify', others);
    const callback = getLabeled('uln_verify_callback', others);
    if (!proxy || !uln || !connection || !callback) return [];
    const v = loadLzVerifyCallback(callback.body());
    const nb = new Block('layerzero_dvn_verify', [], {
      sender: block.message.source,
      nonce: v.nonce,
      status: v.status,
      dvn: block.message.destination,
      proxy: proxy.message.destination,
      uln: uln.message.destination,
      ulnConnection: connection.message.destination,
    });
    nb.mergeBlocks([block, ...others]);
    return [nb];
  }
}

const fill = (f: (d: Record<string, any>, row: ActionRow) => void) => (b: Block, row: ActionRow) => f(b.data, row);

/** The send's columns (TON Center `_fill_layerzero_send_action`), shared by layerzero_send_tokens. */
function fillSend(d: Record<string, any>, r: ActionRow): void {
  r.source = d.initiator;
  r.layerzero_send_data = {
    send_request_id: d.sendRequestId,
    msglib_manager: d.msglibManager,
    msglib: d.msglib,
    uln: d.uln,
    native_fee: d.nativeFee,
    zro_fee: d.zroFee,
    endpoint: d.endpoint,
    channel: d.channel,
  };
  r.layerzero_packet_data = packetData(d.packet);
}

export const layerzeroFamily: Family = {
  matchers: () => [
    [760, new LayerZeroSendMatcher()],
    [770, new LayerZeroSendTokensMatcher()],
    [780, new LayerZeroReceiveMatcher()],
    [790, new LayerZeroCommitPacketMatcher()],
    [800, new LayerZeroDvnVerifyMatcher()],
  ],
  fillers: [
    ['layerzero_send', fill(fillSend)],
    ['layerzero_send_tokens', fill((d, r) => {
      r.source_secondary = d.senderWallet;
      r.destination = d.oapp;
      r.destination_secondary = d.oappWallet;
      r.amount = d.amount;
      r.asset = d.asset;
      fillSend(d.send, r);
      r.source = d.sender;
    })],
    ['layerzero_receive', fill((d, r) => {
      r.source = d.sender;
      r.destination = d.oapp;
      r.destination_secondary = d.channel;
      r.layerzero_packet_data = packetData(d.packet);
    })],
    ['layerzero_commit_packet', fill((d, r) => {
      r.source = d.sender;
      r.source_secondary = d.endpoint;
      r.destination = d.uln;
      r.destination_secondary = d.ulnConnection;
      r.asset = d.channel;
      r.asset_secondary = d.msglibConnection;
      r.layerzero_packet_data = packetData(d.packet);
    })],
    ['layerzero_dvn_verify', fill((d, r) => {
      r.source = d.sender;
      r.layerzero_dvn_verify_data = { nonce: d.nonce, status: d.status, dvn: d.dvn, proxy: d.proxy, uln: d.uln, uln_connection: d.ulnConnection };
    })],
  ],
};
