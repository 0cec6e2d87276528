import { Boc } from './boc/reader.js';
import { Slice } from './boc/slice.js';
import { serializeBoc } from './boc/writer.js';
import { b64 } from './records/format.js';
import { keyToInt, walkHashmap } from './tlb/Hashmap.js';

/**
 * One parameter of a config dictionary (`Hashmap 32 ^Cell`, block.tlb ConfigParams) given as a bag of cells: the
 * parameter's value cell as a bag of cells (base64, no CRC, as tonlib's `tvm.cell` bytes), or null when the
 * dictionary has no such key.
 */
export function configParamBoc(dictBoc: string, id: number): string | null {
  const boc = Boc.parse(Buffer.from(dictBoc, 'base64'));
  let found = -1;
  walkHashmap(new Slice(boc, boc.root), 32, (v, key) => {
    if (found < 0 && keyToInt(key) === id) found = v.loadRef();
  });
  return found < 0 ? null : b64(serializeBoc(boc, found, { crc32: false }));
}
