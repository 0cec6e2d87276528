import { AddressParseError, parseAddressForm } from '../../../shared/ton/address.js';
import { type InterfaceKind, KNOWN_CODES, type KnownCode } from './code-hashes.js';

/**
 * Contract interfaces by code hash, for the stages that ask "what is this account?" (the action classifier, the
 * token stage). An account is named by its address (any form) or by its code hash (hex, or standard / url-safe
 * base64 as the store keeps it). For an address the repository looks the account's current code hash up through
 * the `codeHashOf` it was given (the store, a block's state), so it holds no state of its own.
 */

export interface ContractInterface {
  name: string;
  kind: InterfaceKind;
}

export interface InterfaceRepository {
  /** Interfaces of an account (address) or a code (code hash); `[]` when unknown or when the account has no code. */
  interfacesOf(target: string): Promise<ContractInterface[]>;
}

export interface InterfaceRepositoryOptions {
  /** The current code hash of a raw `wc:HEX` address (any encoding {@link normaliseCodeHash} reads), null if none. */
  codeHashOf: (rawAddress: string) => Promise<string | null>;
}

const BY_HASH: ReadonlyMap<string, KnownCode> = new Map(KNOWN_CODES.map((c) => [c.codeHash, c]));

/** A code hash as lower-case hex, from hex (any case) or 44-character standard or url-safe base64; null otherwise. */
export function normaliseCodeHash(hash: string): string | null {
  if (/^[0-9a-fA-F]{64}$/.test(hash)) return hash.toLowerCase();
  if (/^[A-Za-z0-9+/_-]{43}=$/.test(hash)) {
    const bytes = Buffer.from(hash.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return bytes.toString('hex');
  }
  return null;
}

/** Interfaces known from a code hash alone (any encoding {@link normaliseCodeHash} reads); `[]` when unknown. */
export function interfacesOfCode(codeHash: string | null | undefined): ContractInterface[] {
  if (!codeHash) return [];
  const hex = normaliseCodeHash(codeHash);
  const known = hex === null ? undefined : BY_HASH.get(hex);
  return known ? [{ name: known.name, kind: known.kind }] : [];
}

/**
 * The repository over a code-hash lookup. A target that is neither an address nor a code hash is an
 * {@link AddressParseError} (a caller's bad input, never an unknown contract).
 */
export function createInterfaceRepository(opts: InterfaceRepositoryOptions): InterfaceRepository {
  return {
    async interfacesOf(target) {
      // A 44-character base64 hash and a 48-character user-friendly address cannot be confused, nor 64 hex digits
      // with `wc:hex`.
      if (normaliseCodeHash(target) !== null) return interfacesOfCode(target);
      let raw: string;
      try {
        raw = parseAddressForm(target).raw;
      } catch (e) {
        if (e instanceof AddressParseError) throw new AddressParseError(`${JSON.stringify(target)} is neither an address nor a code hash`);
        throw e;
      }
      return interfacesOfCode(await opts.codeHashOf(raw));
    },
  };
}
