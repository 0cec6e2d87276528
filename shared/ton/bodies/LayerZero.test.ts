import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Address, type Builder, type Cell, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { describeFixtures, fixturesDir } from '../../../test/helpers/fixtures.js';
import { bodySlice } from './cell.js';
import {
  LZ,
  LZ_PACKET_HEADER,
  LZ_PATH_HEADER,
  LZ_SEND_HEADER,
  LZ_VERIFICATION_STATUS_HEADER,
  loadLzChannelCommitPacket,
  loadLzChannelSendCallback,
  loadLzPacket,
  loadLzPath,
  loadLzReceiveExecutePacket,
  loadLzVerifyCallback,
  pyHex,
} from './LayerZero.js';

/*
 * Cells built as LayerZero's TON contracts build them (packages/layerzero-v2/ton: lz::Path::build, lz::Packet::build,
 * md::LzSend::build + fillRequestInfo, buildLayerzeroMessageBody), then read back field by field.
 */

const slice = (c: Cell) => bodySlice(c.toBoc().toString('base64'));
const ones = (b: Builder, n: number): Builder => b.storeUint((1n << BigInt(n)) - 1n, n);

const SRC_OAPP = 0x0a7e49d90df81a1944dac9241f477dbb17cb0c87313eaf2c58a13d85ef942d3n; // leading zero nibble
const DST_OAPP = 0x8925c1dd3e5d8011946a3430d91be742ba8ee930n; // an EVM address: 20 bytes in a uint256

function pathCell(srcEid: number, srcOapp: bigint, dstEid: number, dstOapp: bigint, info: bigint = LZ_PATH_HEADER.info): Cell {
  const h = LZ_PATH_HEADER;
  return ones(beginCell().storeUint(info, h.infoBits), h.fillerBits).storeUint(srcEid, 32).storeUint(srcOapp, 256).storeUint(dstEid, 32).storeUint(dstOapp, 256).endCell();
}

function packetCell(path: Cell, message: Cell, nonce: bigint, guid: bigint, fillerBits: number = LZ_PACKET_HEADER.fillerBits): Cell {
  const h = LZ_PACKET_HEADER;
  const b = beginCell().storeUint(h.info, h.infoBits);
  ones(b, fillerBits);
  if (fillerBits < h.fillerBits) b.storeUint(0, h.fillerBits - fillerBits);
  return b.storeRef(path).storeRef(message).storeUint(nonce, 64).storeUint(guid, 256).endCell();
}

function lzSendCell(o: { requestId: bigint; manager: bigint; msglib: bigint; connection: bigint; packet: Cell; nativeFee: bigint; zroFee: bigint }): Cell {
  const h = LZ_SEND_HEADER;
  const empty = beginCell().endCell();
  return ones(beginCell().storeUint(h.name, h.nameBits).storeUint(h.info, h.infoBits), h.fillerBits)
    .storeUint(o.requestId, 64)
    .storeUint(o.manager, 256)
    .storeUint(o.msglib, 256)
    .storeRef(o.packet)
    .storeRef(empty)
    .storeRef(beginCell().storeUint(o.connection, 256).storeUint(o.nativeFee, 128).storeUint(o.zroFee, 128).storeRef(empty).storeRef(empty).endCell())
    .endCell();
}

/** `buildLayerzeroMessageBody`: op, query id, donation, origin, ^md. */
function lzMessage(op: number, md: Cell): Cell {
  return beginCell()
    .storeUint(op, 32)
    .storeUint(77, 64)
    .storeCoins(0)
    .storeAddress(Address.parse('0:170725394aa56136fbd27d0ce31d8a98e0f8ae72a4d2379b5dde83e211a2d5fa'))
    .storeRef(md)
    .endCell();
}

/** A class cell with some header bits and the given references (the readers follow references only). */
const wrap = (...refs: Cell[]): Cell => {
  const b = beginCell().storeUint(0x1234, 16);
  for (const r of refs) b.storeRef(r);
  return b.endCell();
};

const MESSAGE = beginCell().storeBuffer(Buffer.from('000300000000e1320ab3ea', 'hex')).endCell();

describe('LayerZero body readers (layouts of LayerZero-v2/ton)', () => {
  it('pyHex is Python hex(): 0x, lower case, no leading zeros', () => {
    expect(pyHex(0n)).toBe('0x0');
    expect(pyHex(SRC_OAPP)).toBe('0xa7e49d90df81a1944dac9241f477dbb17cb0c87313eaf2c58a13d85ef942d3');
  });

  it('lz::Path: eids and OApps', () => {
    const p = loadLzPath(slice(pathCell(30343, SRC_OAPP, 30101, DST_OAPP)));
    expect(p).toEqual({ srcEid: 30343, srcOapp: '0xa7e49d90df81a1944dac9241f477dbb17cb0c87313eaf2c58a13d85ef942d3', dstEid: 30101, dstOapp: '0x8925c1dd3e5d8011946a3430d91be742ba8ee930' });
  });

  it('lz::Path of another class (header info differs) does not parse', () => {
    expect(() => loadLzPath(slice(pathCell(1, 2n, 3, 4n, LZ_PATH_HEADER.info + 1n)))).toThrow(/header info/);
  });

  it('lz::Packet: path, message (own data bytes only), nonce, guid', () => {
    const tail = beginCell().storeBuffer(Buffer.from('ffff', 'hex')).endCell();
    const message = beginCell().storeBuffer(Buffer.from('0102', 'hex')).storeRef(tail).endCell();
    const p = loadLzPacket(slice(packetCell(pathCell(30343, SRC_OAPP, 30101, DST_OAPP), message, 729n, 0x09dc8c0fn)));
    expect(p.path.srcEid).toBe(30343);
    expect(p.path.dstOapp).toBe('0x8925c1dd3e5d8011946a3430d91be742ba8ee930');
    expect(p.message).toBe('0x0102');
    expect(p.nonce).toBe(729n);
    expect(p.guid).toBe('0x9dc8c0f');
  });

  it('lz::Packet: a message not in whole bytes has its last byte padded with zero bits', () => {
    const message = beginCell().storeUint(0xab, 8).storeUint(0b101, 3).endCell();
    expect(loadLzPacket(slice(packetCell(pathCell(1, 1n, 2, 2n), message, 1n, 1n))).message).toBe('0xaba0');
  });

  it('lz::Packet with a header filler that is not all ones does not parse', () => {
    expect(() => loadLzPacket(slice(packetCell(pathCell(1, 1n, 2, 2n), MESSAGE, 1n, 1n, LZ_PACKET_HEADER.fillerBits - 1)))).toThrow(/filler/);
  });

  it('CHANNEL_SEND_CALLBACK: the md::LzSend in md::MdObj(md::MessagingReceipt(lzSend, …), storage)', () => {
    const packet = packetCell(pathCell(30343, SRC_OAPP, 30420, DST_OAPP), MESSAGE, 90n, 0x46c71599n);
    const send = lzSendCell({ requestId: 90n, manager: 0x150645746en, msglib: 0x063bdfbfn, connection: 0x2ed0n, packet, nativeFee: 14835102020n, zroFee: 3n });
    const body = lzMessage(LZ.channelSendCallback, wrap(wrap(send), beginCell().endCell()));
    const s = loadLzChannelSendCallback(slice(body));
    expect(s.sendRequestId).toBe(90n);
    expect(s.sendMsglibManager).toBe('0x150645746e');
    expect(s.sendMsglib).toBe('0x63bdfbf');
    expect(s.sendMsglibConnection).toBe(0x2ed0n);
    expect(s.nativeFee).toBe(14835102020n);
    expect(s.zroFee).toBe(3n);
    expect(s.packet.nonce).toBe(90n);
    expect(s.packet.guid).toBe('0x46c71599');
    expect(s.packet.message).toBe('0x000300000000e1320ab3ea');
    expect(s.packet.path).toEqual({ srcEid: 30343, srcOapp: pyHex(SRC_OAPP), dstEid: 30420, dstOapp: pyHex(DST_OAPP) });
  });

  it('an LzSend under a wrong name does not parse', () => {
    const packet = packetCell(pathCell(1, 1n, 2, 2n), MESSAGE, 1n, 1n);
    const h = LZ_SEND_HEADER;
    const bad = ones(beginCell().storeUint(h.name + 1n, h.nameBits).storeUint(h.info, h.infoBits), h.fillerBits).storeUint(0, 64 + 512).storeRef(packet).endCell();
    expect(() => loadLzChannelSendCallback(slice(lzMessage(LZ.channelSendCallback, wrap(wrap(bad)))))).toThrow(/name/);
  });

  it('LZ_RECEIVE_EXECUTE and CHANNEL_COMMIT_PACKET: the packet, first reference of the md', () => {
    const packet = packetCell(pathCell(30101, DST_OAPP, 30343, SRC_OAPP), MESSAGE, 194n, 0xab90n);
    for (const [op, read] of [
      [LZ.lzReceiveExecute, loadLzReceiveExecutePacket],
      [LZ.channelCommitPacket, loadLzChannelCommitPacket],
    ] as const) {
      const p = read(slice(lzMessage(op, wrap(packet, beginCell().endCell()))));
      expect(p.nonce).toBe(194n);
      expect(p.guid).toBe('0xab90');
      expect(p.path.srcEid).toBe(30101);
      expect(p.path.dstOapp).toBe(pyHex(SRC_OAPP));
    }
  });

  it('ULN_CONNECTION_VERIFY_CALLBACK: nonce and status of md::VerificationStatus', () => {
    const h = LZ_VERIFICATION_STATUS_HEADER;
    const status = (code: number) => ones(beginCell().storeUint(h.info, h.infoBits), h.fillerBits).storeUint(125, 64).storeUint(code, 32).endCell();
    const read = (code: number) => loadLzVerifyCallback(slice(lzMessage(LZ.ulnConnectionVerifyCallback, wrap(status(code), beginCell().endCell()))));
    expect(read(0x3bbc306b)).toEqual({ nonce: 125n, statusCode: 0x3bbc306b, status: 'succeeded' });
    expect(read(0x7fcbb4ac).status).toBe('nonce_out_of_range');
    expect(read(0x29c53fab).status).toBe('dvn_not_configured');
    expect(read(7).status).toBe('unknown_7');
  });
});

/*
 * Real mainnet bodies from TON Center's action corpus, read against the values TON Center's test case states for
 * the action built from them (fixtures/action-corpus/test_cases/layerzero.yaml).
 */
describeFixtures('LayerZero body readers on mainnet messages', () => {
  const bodyOf = (traceId: string, op: number): string => {
    const doc = JSON.parse(readFileSync(path.join(fixturesDir, 'action-corpus', 'traces', `${traceId}.json`), 'utf8'));
    for (const tx of doc.transactions) {
      for (const m of tx.messages) if (m.direction === 'in' && m.opcode !== null && m.opcode >>> 0 === op) return m.message_content.body as string;
    }
    throw new Error(`no message ${op.toString(16)} in ${traceId}`);
  };

  it('CHANNEL_SEND_CALLBACK of "LayerZero send msg to tron"', () => {
    const s = loadLzChannelSendCallback(bodySlice(bodyOf('01yfeTlzIHDqWZwz-PJTRADD3nDv5LWynHMGsnPZGJU=', LZ.channelSendCallback)));
    expect(s.sendRequestId).toBe(90n);
    expect(s.nativeFee).toBe(14835102020n);
    expect(s.zroFee).toBe(0n);
    expect(s.sendMsglibManager).toBe('0x150645746e25be5486eb3b2f5d98b44c6b324697c48d495d059f96fc9d3ec368');
    expect(s.sendMsglib).toBe('0x63bdfbf347f883ddba72a200563570af2dc72695b2b2fccaaecd113688ac570');
    expect(s.packet).toEqual({
      path: { srcEid: 30343, srcOapp: '0x170725394aa56136fbd27d0ce31d8a98e0f8ae72a4d2379b5dde83e211a2d5fa', dstEid: 30420, dstOapp: '0x8925c1dd3e5d8011946a3430d91be742ba8ee930' },
      message: '0x000300000000000000000000000000000000000000e1320ab3ea00000000000000000000000000000000',
      nonce: 90n,
      guid: '0x46c71599bf21b54d59bd078d0bae22878154b16c1216fb6b83b0edf3a1167476',
    });
  });

  it('ULN_CONNECTION_VERIFY_CALLBACK of "LayerZero dvn verify"', () => {
    const v = loadLzVerifyCallback(bodySlice(bodyOf('0IpCwGaMBpo9nqnjKOiBAnHhawXzcrpRHErKz6LJUFM=', LZ.ulnConnectionVerifyCallback)));
    expect(v.nonce).toBe(125n);
    expect(v.status).toBe('succeeded');
  });

  it('CHANNEL_COMMIT_PACKET of "LayerZero commit packet from eth to ton"', () => {
    const p = loadLzChannelCommitPacket(bodySlice(bodyOf('12Jtky5tD9ra9tUPUSSGXkMRySu85MpmdVFImk3jCRA=', LZ.channelCommitPacket)));
    expect(p.path).toEqual({ srcEid: 30101, srcOapp: '0x5d3a1ff2b6bab83b63cd9ad0787074081a52ef34', dstEid: 30343, dstOapp: '0x23a676145f8dee3632f722aac50392f22cf0b4be8f624e038279a6f5005fb669' });
    expect(p.nonce).toBe(194n);
    expect(p.guid).toBe('0xab90579b86ec0ae70f16918597f7305234066f1dd12910543cb420e51da12bae');
    expect(p.message).toBe('0x48f4826c3a1662ca01120de8a7eaf7aa1a25b0b4c5a3a5fe2338eef02cb9ccad00000002199d124f');
  });

  it('LZ_RECEIVE_EXECUTE of "LayerZero receive"', () => {
    const p = loadLzReceiveExecutePacket(bodySlice(bodyOf('1lRaVzUa7EjqG228WiDTg_2b_HSGlO5apCmj2JEAHxA=', LZ.lzReceiveExecute)));
    expect(p.path.srcOapp).toBe('0x811ed79db9d34e83bdb73df6c3e07961cfb0d5c0');
    expect(p.path.dstOapp).toBe('0x170725394aa56136fbd27d0ce31d8a98e0f8ae72a4d2379b5dde83e211a2d5fa');
    expect(p.nonce).toBe(729n);
    expect(p.guid).toBe('0x9dc8c0fd5c765d02cf9b213b0f1e39b8617dd76cda4e7497bed59f0e31557cd');
  });
});
