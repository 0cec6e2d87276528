/**
 * The server side of ADNL over TCP (the transport liteservers speak; https://docs.ton.org/develop/network/adnl-tcp),
 * written from the protocol description with node:crypto and tweetnacl, independently of the `adnl` package that
 * ton-lite-client uses as the client.
 *
 * Handshake: the client opens with 256 bytes,
 *   key_id(32) = sha256(0xc6b41348 ‖ server ed25519 public key)   (TL id of pub.ed25519, little-endian)
 *   client ed25519 public key(32)
 *   sha256(aes_params)(32)
 *   aes_params(160) encrypted with AES-256-CTR, key = secret[0..16] ‖ hash[16..32], iv = hash[0..4] ‖ secret[20..32]
 * where `secret` is X25519(server key, client key) with both ed25519 keys mapped to Curve25519. aes_params holds
 * rx_key(32) tx_key(32) rx_nonce(16) tx_nonce(16) padding(64), named from the client's side: the server decrypts
 * with tx_key/tx_nonce and encrypts with rx_key/rx_nonce. The server confirms with an empty packet.
 *
 * Packets, each direction one continuous AES-256-CTR stream: size(4, LE) = 32 + payload + 32, nonce(32) random,
 * payload, sha256(nonce ‖ payload).
 */
import { type Cipher, type Decipher, createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';

export const HANDSHAKE_BYTES = 256;

/** An ed25519 identity of the loopback liteserver. */
export interface ServerKey {
  /** 32-byte seed the key pair is derived from. */
  seed: Uint8Array;
  publicKey: Uint8Array;
  /** ADNL short id: sha256 of the TL-serialized public key (`pub.ed25519 key:int256`). */
  keyId: Buffer;
  /** The X25519 scalar: the first half of sha512(seed) (clamped by scalarMult), as ed25519 derives it. */
  scalar: Uint8Array;
}

export function createServerKey(seed: Uint8Array = randomBytes(32)): ServerKey {
  const pair = nacl.sign.keyPair.fromSeed(seed);
  const keyId = sha256(Buffer.from([0xc6, 0xb4, 0x13, 0x48]), pair.publicKey);
  const scalar = createHash('sha512').update(seed).digest().subarray(0, 32);
  return { seed, publicKey: pair.publicKey, keyId, scalar: new Uint8Array(scalar) };
}

export function sha256(...parts: Uint8Array[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

const P = 2n ** 255n - 19n;

function modPow(b: bigint, e: bigint): bigint {
  let r = 1n;
  b %= P;
  while (e > 0n) {
    if (e & 1n) r = (r * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return r;
}

/**
 * Maps an ed25519 public key to its Curve25519 (Montgomery) u-coordinate: u = (1 + y) / (1 − y) mod p, the
 * birational map RFC 7748 §4.1 gives. The encoding is y little-endian with the x sign in the top bit.
 */
export function ed25519ToX25519(publicKey: Uint8Array): Uint8Array {
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(publicKey[i]!);
  y &= (1n << 255n) - 1n;
  const u = ((1n + y) * modPow((1n - y + P) % P, P - 2n)) % P;
  const out = new Uint8Array(32);
  let v = u;
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 255n);
    v >>= 8n;
  }
  return out;
}

export interface Session {
  /** Decrypts the client's stream. */
  rx: Decipher;
  /** Encrypts the server's stream. */
  tx: Cipher;
}

export class HandshakeError extends Error {}

/** Checks and decrypts the client's 256-byte opening; returns the two stream ciphers. */
export function acceptHandshake(key: ServerKey, init: Buffer): Session {
  if (init.length !== HANDSHAKE_BYTES) throw new HandshakeError(`handshake must be ${HANDSHAKE_BYTES} bytes`);
  const keyId = init.subarray(0, 32);
  if (!keyId.equals(key.keyId)) throw new HandshakeError('handshake for another key id');
  const clientPublic = init.subarray(32, 64);
  const paramsHash = init.subarray(64, 96);
  const secret = nacl.scalarMult(key.scalar, ed25519ToX25519(clientPublic));
  const hkey = Buffer.concat([secret.subarray(0, 16), paramsHash.subarray(16, 32)]);
  const hiv = Buffer.concat([paramsHash.subarray(0, 4), secret.subarray(20, 32)]);
  const d = createDecipheriv('aes-256-ctr', hkey, hiv);
  const params = Buffer.concat([d.update(init.subarray(96, 256)), d.final()]);
  if (!sha256(params).equals(paramsHash)) throw new HandshakeError('handshake parameters do not match their hash (wrong key?)');
  const rxKey = params.subarray(0, 32);
  const txKey = params.subarray(32, 64);
  const rxNonce = params.subarray(64, 80);
  const txNonce = params.subarray(80, 96);
  return { rx: createDecipheriv('aes-256-ctr', txKey, txNonce), tx: createCipheriv('aes-256-ctr', rxKey, rxNonce) };
}

/** One framed packet, plaintext (encrypt it with the session's `tx`). */
export function framePacket(payload: Uint8Array): Buffer {
  const nonce = randomBytes(32);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(32 + payload.length + 32);
  return Buffer.concat([size, nonce, payload, sha256(nonce, payload)]);
}

/**
 * Splits decrypted stream bytes into packet payloads. Returns the payloads and the unconsumed tail.
 * @throws Error on a packet whose checksum does not match
 */
export function takePackets(buf: Buffer): { payloads: Buffer[]; rest: Buffer } {
  const payloads: Buffer[] = [];
  let p = 0;
  while (buf.length - p >= 4) {
    const size = buf.readUInt32LE(p);
    if (size < 64 || size > 1 << 26) throw new Error(`ADNL packet size ${size} out of range`);
    if (buf.length - p - 4 < size) break;
    const nonce = buf.subarray(p + 4, p + 36);
    const payload = buf.subarray(p + 36, p + 4 + size - 32);
    const sum = buf.subarray(p + 4 + size - 32, p + 4 + size);
    if (!sha256(nonce, payload).equals(sum)) throw new Error('ADNL packet checksum mismatch');
    payloads.push(Buffer.from(payload));
    p += 4 + size;
  }
  return { payloads, rest: buf.subarray(p) };
}

/**
 * The client's half of the handshake, for tests that talk to the loopback server without ton-lite-client (tcp.ping,
 * malformed input). Returns the 256 opening bytes and the client's stream ciphers.
 */
export function clientHandshake(serverPublicKey: Uint8Array): { init: Buffer; session: Session } {
  const client = createServerKey();
  const params = randomBytes(160);
  const paramsHash = sha256(params);
  const secret = nacl.scalarMult(client.scalar, ed25519ToX25519(serverPublicKey));
  const hkey = Buffer.concat([secret.subarray(0, 16), paramsHash.subarray(16, 32)]);
  const hiv = Buffer.concat([paramsHash.subarray(0, 4), secret.subarray(20, 32)]);
  const c = createCipheriv('aes-256-ctr', hkey, hiv);
  const sealed = Buffer.concat([c.update(params), c.final()]);
  const keyId = sha256(Buffer.from([0xc6, 0xb4, 0x13, 0x48]), serverPublicKey);
  const init = Buffer.concat([keyId, client.publicKey, paramsHash, sealed]);
  return {
    init,
    session: {
      rx: createDecipheriv('aes-256-ctr', params.subarray(0, 32), params.subarray(64, 80)),
      tx: createCipheriv('aes-256-ctr', params.subarray(32, 64), params.subarray(80, 96)),
    },
  };
}
