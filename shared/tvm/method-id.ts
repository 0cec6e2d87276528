/**
 * Get-method ids (FunC `method_id` of a name): CRC16/XMODEM of the name, with bit 16 set; `main` and the receive
 * entry points have fixed small ids.
 */
export function methodId(name: string): number {
  if (name === 'main' || name === 'recv_internal') return 0;
  if (name === 'recv_external') return -1;
  let crc = 0;
  for (const byte of Buffer.from(name, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return (crc & 0xffff) | 0x10000;
}
