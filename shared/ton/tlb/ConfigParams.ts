import { Slice } from '../boc/slice.js';
import { keyToInt, walkHashmap } from './Hashmap.js';

/**
 * `_ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams` (block.tlb). Parameters stay as cells:
 * decoding each ConfigParam is left to whoever needs one.
 */
export interface ConfigParams {
  configAddr: Uint8Array;
  /** Root cell of the parameter dictionary. */
  root: number;
  /** Parameter number (signed: -999 and -71 exist) → cell index of its value, in key order. */
  params: Map<number, number>;
}

export function loadConfigParams(s: Slice): ConfigParams {
  const configAddr = s.loadBytes(32);
  const root = s.loadRef();
  const params = new Map<number, number>();
  walkHashmap(new Slice(s.boc, root), 32, (v, key) => params.set(keyToInt(key), v.loadRef()));
  return { configAddr, root, params };
}
