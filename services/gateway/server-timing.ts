/**
 * `Server-Timing: app;dur=<d>` where `<d>` is Go's `time.Duration.String()`, as ton-index-go appends it
 * (api-v3.md §0.1): `0s`, `850ns`, `12.5µs`, `1.234567ms`, `2.5s`, `1m3.2s`. Go writes the header as UTF-8, so
 * the micro sign goes out as its two UTF-8 bytes (Node sends header strings as latin1).
 */
export function serverTiming(elapsedMs: number): string {
  return `app;dur=${goDuration(Math.max(0, Math.round(elapsedMs * 1e6))).replace('µ', '\u00c2\u00b5')}`;
}

/** Go's `Duration.String` for a non-negative number of nanoseconds. */
export function goDuration(ns: number): string {
  if (ns === 0) return '0s';
  if (ns < 1e9) {
    if (ns < 1e3) return `${ns}ns`;
    if (ns < 1e6) return `${fraction(ns, 3)}µs`;
    return `${fraction(ns, 6)}ms`;
  }
  const seconds = `${fraction(ns % 60e9, 9)}s`;
  const minutes = Math.floor(ns / 60e9);
  if (minutes === 0) return seconds;
  const hours = Math.floor(minutes / 60);
  return hours === 0 ? `${minutes}m${seconds}` : `${hours}h${minutes % 60}m${seconds}`;
}

/** `v / 10^prec` with the fraction's trailing zeros (and a bare point) dropped, as Go's fmtFrac. */
function fraction(v: number, prec: number): string {
  const unit = 10 ** prec;
  const whole = Math.floor(v / unit);
  const frac = String(v % unit).padStart(prec, '0').replace(/0+$/, '');
  return frac === '' ? String(whole) : `${whole}.${frac}`;
}
