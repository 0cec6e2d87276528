import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { refSlice } from './cell.js';

/**
 * LayerZero v2 on TON (LayerZero-Labs `packages/layerzero-v2/ton`): the opcodes of the messages the endpoint,
 * channel, message library (ULN), DVN and executor exchange, and the readers of the typed cells (`md::*`, `lz::*`
 * "class" cells) TON Center's classifier takes values from.
 *
 * Every protocol message is `op:uint32 query_id:uint64 donation:Coins origin:MsgAddress md:^Cell`
 * (`buildLayerzeroMessageBody`); the values sit in cells reached through the first references of `md`. A class cell
 * starts with a fixed header (`_headerInfo`, the class name and field layout packed into an integer) and a run of
 * one-bits (`_headerFillerBits`); TON Center checks both, so a cell of another class does not parse.
 */
export const LZ = {
  /** BaseInterface::OP::EVENT: a contract's event, sent to the event sink. */
  event: 0xe33b9873,
  /** Endpoint::OP::ENDPOINT_SEND: an OApp asks its endpoint to send a packet. */
  endpointSend: 0xdd4ea3b4,
  /** Channel::OP::CHANNEL_SEND. */
  channelSend: 0x536feb09,
  /** MsglibConnection::OP::MSGLIB_CONNECTION_SEND. */
  msglibConnectionSend: 0x4002b790,
  /** Uln::OP::ULN_SEND. */
  ulnSend: 0x5de68393,
  /** Channel::OP::MSGLIB_SEND_CALLBACK: the ULN's quote back to the channel. */
  msglibSendCallback: 0x421c1a25,
  /** Layerzero::OP::CHANNEL_SEND_CALLBACK: the channel tells the OApp the packet was sent. */
  channelSendCallback: 0xa2b5fbae,
  /** Channel::OP::LZ_RECEIVE_PREPARE: the executor starts a delivery. */
  channelLzReceivePrepare: 0x22f3ac09,
  /** Layerzero::OP::LZ_RECEIVE_PREPARE: the channel asks the OApp to prepare. */
  lzReceivePrepare: 0x97df404c,
  /** Channel::OP::LZ_RECEIVE_LOCK: the OApp locks the nonce at the channel. */
  channelLzReceiveLock: 0xb7680bc6,
  /** Layerzero::OP::LZ_RECEIVE_EXECUTE: the channel hands the packet to the OApp. */
  lzReceiveExecute: 0x0c7b8418,
  /** Channel::OP::LZ_RECEIVE_EXECUTE_CALLBACK: the OApp reports the execution back. */
  lzReceiveExecuteCallback: 0xcaae25a1,
  /** Uln::OP::ULN_COMMIT_PACKET: the executor commits a verified packet. */
  ulnCommitPacket: 0x28b97077,
  /** UlnConnection::OP::ULN_CONNECTION_COMMIT_PACKET. */
  ulnConnectionCommitPacket: 0xf9d37b80,
  /** Endpoint::OP::ENDPOINT_COMMIT_PACKET. */
  endpointCommitPacket: 0x5dab749a,
  /** Channel::OP::CHANNEL_COMMIT_PACKET. */
  channelCommitPacket: 0x5388cd88,
  /** MsglibConnection::OP::MSGLIB_CONNECTION_COMMIT_PACKET_CALLBACK. */
  msglibConnectionCommitPacketCallback: 0x5e178f33,
  /** Dvn::OP::VERIFY: a DVN admin submits a verification. */
  dvnVerify: 0xa0d51a8d,
  /** Proxy::OP::CALL_CONTRACT: the DVN's proxy forwards it. */
  proxyCallContract: 0x09f047d9,
  /** Uln::OP::ULN_VERIFY. */
  ulnVerify: 0x994aaf4e,
  /** UlnConnection::OP::ULN_CONNECTION_VERIFY. */
  ulnConnectionVerify: 0x4ec8f80a,
  /** UltraLightNode::OP::ULN_CONNECTION_VERIFY_CALLBACK: the verification's outcome, back to the proxy. */
  ulnConnectionVerifyCallback: 0x3cb38090,
} as const;

/** `lz::Path` header: 152 bits of header info, 198 filler ones, then `srcEid:uint32 srcOApp:uint256 dstEid:uint32 dstOApp:uint256`. */
export const LZ_PATH_HEADER = { info: 8903714975572488637007080065659n, infoBits: 152, fillerBits: 198 } as const;
/** `lz::Packet` header: then `^path ^message nonce:uint64 guid:uint256`. */
export const LZ_PACKET_HEADER = { info: 417359019239977417716476838698419835n, infoBits: 152, fillerBits: 198 } as const;
/** `md::LzSend`: the name `"lzSend"` in 80 bits, 180 bits of header info, 90 filler ones. */
export const LZ_SEND_HEADER = { name: BigInt('0x' + Buffer.from('lzSend').toString('hex')), nameBits: 80, info: 582890735024998957421269964955452773563747974476099581n, infoBits: 180, fillerBits: 90 } as const;
/** `md::VerificationStatus` header: then `nonce:uint64 status:uint32`. */
export const LZ_VERIFICATION_STATUS_HEADER = { info: 38421788582694199859296615363593851n, infoBits: 116, fillerBits: 234 } as const;

/** `UlnConnection::verify` outcomes (`ULN_CONNECTION_VERIFY_*`), by the names TON Center stores. */
const VERIFY_STATUS: ReadonlyMap<number, string> = new Map([
  [0x3bbc306b, 'succeeded'],
  [0x7fcbb4ac, 'nonce_out_of_range'],
  [0x29c53fab, 'dvn_not_configured'],
]);

/** Python `hex()` of an unsigned integer, as TON Center writes LayerZero's uint256 fields: `0x`, no leading zeros. */
export function pyHex(v: bigint): string {
  return `0x${v.toString(16)}`;
}

function header(s: Slice, what: string, info: bigint, infoBits: number, fillerBits: number): void {
  if (s.loadUintBig(infoBits) !== info) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', what, 'header info mismatch');
  if (s.loadUintBig(fillerBits) !== (1n << BigInt(fillerBits)) - 1n) throw tlbError('TLB_INVALID', what, 'header filler is not all ones');
}

/** The data bits of a cell as `0x` + hex bytes (a last partial byte padded with zero bits); its refs are not read. */
function cellDataHex(s: Slice): string {
  const bits = s.remainingBits;
  const whole = bits >> 3;
  let out = Buffer.from(s.loadBytes(whole)).toString('hex');
  const rest = bits & 7;
  if (rest > 0) out += ((s.loadUint(rest) << (8 - rest)) & 0xff).toString(16).padStart(2, '0');
  return `0x${out}`;
}

export interface LzPath {
  srcEid: number;
  /** uint256 as `0x` hex without leading zeros (an EVM address shows as its 40 digits or fewer). */
  srcOapp: string;
  dstEid: number;
  dstOapp: string;
}

export function loadLzPath(s: Slice): LzPath {
  const h = LZ_PATH_HEADER;
  header(s, 'lz::Path', h.info, h.infoBits, h.fillerBits);
  const srcEid = s.loadUint(32);
  const srcOapp = pyHex(s.loadUintBig(256));
  const dstEid = s.loadUint(32);
  const dstOapp = pyHex(s.loadUintBig(256));
  return { srcEid, srcOapp, dstEid, dstOapp };
}

export interface LzPacket {
  path: LzPath;
  /** The message cell's own data bits as `0x` + hex bytes. */
  message: string;
  nonce: bigint;
  guid: string;
}

export function loadLzPacket(s: Slice): LzPacket {
  const h = LZ_PACKET_HEADER;
  header(s, 'lz::Packet', h.info, h.infoBits, h.fillerBits);
  const path = loadLzPath(refSlice(s, s.loadRef()));
  const message = cellDataHex(refSlice(s, s.loadRef()));
  const nonce = s.loadUintBig(64);
  const guid = pyHex(s.loadUintBig(256));
  return { path, message, nonce, guid };
}

export interface LzSend {
  sendRequestId: bigint;
  sendMsglibManager: string;
  sendMsglib: string;
  packet: LzPacket;
  sendMsglibConnection: bigint;
  nativeFee: bigint;
  zroFee: bigint;
}

/**
 * `md::LzSend`: header, `sendRequestId:uint64 sendMsglibManager:uint256 sendMsglib:uint256 ^packet ^extraOptions
 * ^[sendMsglibConnection:uint256 nativeFee:uint128 zroFee:uint128 ^enforcedOptions ^callbackData]`.
 */
export function loadLzSend(s: Slice): LzSend {
  const h = LZ_SEND_HEADER;
  if (s.loadUintBig(h.nameBits) !== h.name) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'md::LzSend', 'wrong name');
  header(s, 'md::LzSend', h.info, h.infoBits, h.fillerBits);
  const sendRequestId = s.loadUintBig(64);
  const sendMsglibManager = pyHex(s.loadUintBig(256));
  const sendMsglib = pyHex(s.loadUintBig(256));
  const packet = loadLzPacket(refSlice(s, s.loadRef()));
  s.loadRef(); // extraOptions
  const tail = refSlice(s, s.loadRef());
  const sendMsglibConnection = tail.loadUintBig(256);
  const nativeFee = tail.loadUintBig(128);
  const zroFee = tail.loadUintBig(128);
  tail.loadRef(); // enforcedOptions
  tail.loadRef(); // callbackData
  return { sendRequestId, sendMsglibManager, sendMsglib, packet, sendMsglibConnection, nativeFee, zroFee };
}

/**
 * The cell reached from a message body by following the first reference `depth` times, whatever the bits before
 * (TON Center reads these cells by reference index).
 */
function firstRefs(body: Slice, depth: number): Slice {
  let s = body;
  for (let i = 0; i < depth; i++) s = refSlice(s, new Slice(s.boc, s.cell).loadRef());
  return s;
}

/**
 * Layerzero::OP::CHANNEL_SEND_CALLBACK (channel → OApp, channel/handler.fc): the message's `md` is
 * `md::MdObj(md::MessagingReceipt(lzSend, …), initialStorage)`; the `md::LzSend` of the sent packet is the first
 * reference of the receipt, three first references down from the body.
 */
export function loadLzChannelSendCallback(body: Slice): LzSend {
  return loadLzSend(firstRefs(body, 3));
}

/**
 * Layerzero::OP::LZ_RECEIVE_EXECUTE (channel → OApp) and Channel::OP::LZ_RECEIVE_EXECUTE_CALLBACK (OApp → channel):
 * the `lz::Packet` two first references down (the message's `md`, whose first reference is the packet).
 */
export function loadLzReceiveExecutePacket(body: Slice): LzPacket {
  return loadLzPacket(firstRefs(body, 2));
}

/** Channel::OP::CHANNEL_COMMIT_PACKET (endpoint → channel): the committed `lz::Packet`, first reference of its extended md. */
export function loadLzChannelCommitPacket(body: Slice): LzPacket {
  return loadLzPacket(firstRefs(body, 2));
}

export interface LzVerificationStatus {
  nonce: bigint;
  statusCode: number;
  /** `succeeded`, `nonce_out_of_range`, `dvn_not_configured`, else `unknown_<code>` (decimal). */
  status: string;
}

/**
 * UltraLightNode::OP::ULN_CONNECTION_VERIFY_CALLBACK: `md::MdObj(md::VerificationStatus, initialStorage)` as the
 * message's `md`; the status cell is its first reference.
 */
export function loadLzVerifyCallback(body: Slice): LzVerificationStatus {
  const s = firstRefs(body, 2);
  const h = LZ_VERIFICATION_STATUS_HEADER;
  header(s, 'md::VerificationStatus', h.info, h.infoBits, h.fillerBits);
  const nonce = s.loadUintBig(64);
  const statusCode = s.loadUint(32);
  return { nonce, statusCode, status: VERIFY_STATUS.get(statusCode) ?? `unknown_${statusCode}` };
}
