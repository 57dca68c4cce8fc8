// resource.Quantity (k8s.io/apimachinery/pkg/api/resource): fixed-point numbers
// with SI suffixes. Kept exactly as integer nanos (upstream's smallest scale);
// parse rounds up to 1n, String() prints the canonical form upstream prints.

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/** The regular expression upstream's ErrFormatWrong quotes. */
export const QUANTITY_SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
export const ERR_FORMAT_WRONG = `quantities must match the regular expression '${QUANTITY_SPLIT_RE}'`;
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
export const ERR_SUFFIX = "unable to parse quantity's suffix";

/** A quantity string that could not be parsed; message is upstream's error text. */
export class QuantityError extends Error {
  override name = 'QuantityError';
  constructor(
    message: string,
    readonly input: string,
  ) {
    super(message);
  }
}

const NANO = 1_000_000_000n;
const MAX_INT64 = 9223372036854775807n;
/** Guard against exponents that would build astronomically large numbers (upstream wraps int32). */
const MAX_EXPONENT = 1000;

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_BY_EXP = new Map(Object.entries(DECIMAL_SUFFIXES).map(([s, e]) => [e, s]));
const BINARY_BY_EXP = new Map(Object.entries(BINARY_SUFFIXES).map(([s, e]) => [e, s]));

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const abs = (n: bigint): bigint => (n < 0n ? -n : n);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

interface Split {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
}

/** Splits `-1.5Gi` into sign, integer digits (leading zeros stripped), fraction digits and suffix, as parseQuantityString. */
function splitQuantity(str: string): Split {
  let pos = 0;
  let positive = true;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') {
    pos++;
  }
  while (str[pos] === '0') pos++;
  if (pos >= str.length) return { positive, num: '0', denom: '', suffix: '' };
  const numStart = pos;
  while (isDigit(str[pos])) pos++;
  const num = str.slice(numStart, pos) || '0';
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    const denomStart = pos;
    while (isDigit(str[pos])) pos++;
    denom = str.slice(denomStart, pos);
  }
  const suffixStart = pos;
  while (pos < str.length && 'eEinumkKMGTP'.includes(str[pos] as string)) pos++;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (isDigit(str[pos])) pos++;
  if (pos < str.length) throw new QuantityError(ERR_FORMAT_WRONG, str);
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

/** Suffix → base and exponent (quantitySuffixer.interpret). */
function interpretSuffix(suffix: string, input: string): { base: 10 | 2; exponent: number; format: QuantityFormat } {
  const dec = DECIMAL_SUFFIXES[suffix];
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = BINARY_SUFFIXES[suffix];
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?[0-9]+$/.test(suffix.slice(1))) {
    const exponent = Number(suffix.slice(1));
    if (Math.abs(exponent) > MAX_EXPONENT) throw new QuantityError(ERR_NUMERIC, input);
    return { base: 10, exponent, format: 'DecimalExponent' };
  }
  throw new QuantityError(ERR_SUFFIX, input);
}

/** Whether upstream keeps the caller's string as the printed form (the "already canonical" fast path of ParseQuantity). */
function keepsInputString(s: Split, base: 10 | 2, exponent: number): boolean {
  const shifted = s.num + s.denom;
  if (base === 2) {
    if (s.denom.length > 0) return false;
    const precision = 15 - s.num.length - Math.trunc((exponent * 3) / 10) - 1;
    if (precision < 0) return false;
    const value = BigInt(s.num);
    return (value & 7n) !== 0n && value << BigInt(exponent) <= MAX_INT64;
  }
  const precision = 18 - (s.num.length + s.denom.length);
  const scale = exponent - s.denom.length;
  if (precision < 0 || scale < -9) return false;
  return scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
}

/** A resource quantity (`500m`, `128Mi`, `1e3`). Immutable; arithmetic returns new values. */
export class Quantity {
  private constructor(
    /** The value in units of 10^-9. */
    readonly nanos: bigint,
    readonly format: QuantityFormat,
    private readonly printed?: string,
  ) {}

  /** Parses a quantity string; throws QuantityError with upstream's message on bad syntax. */
  static parse(str: string): Quantity {
    if (typeof str !== 'string' || str.length === 0) throw new QuantityError(ERR_FORMAT_WRONG, String(str));
    if (str === '0') return new Quantity(0n, 'DecimalSI', '0');
    const s = splitQuantity(str);
    const { base, exponent, format } = interpretSuffix(s.suffix, str);
    const shifted = s.num + s.denom;
    // Exact rational value = shifted * base^exp / 10^len(denom); expressed in nanos, rounded away from zero.
    let numerator = BigInt(shifted);
    let denominator = pow10(s.denom.length);
    if (base === 2) numerator <<= BigInt(exponent);
    else if (exponent >= 0) numerator *= pow10(exponent);
    else denominator *= pow10(-exponent);
    numerator *= NANO;
    let nanos = numerator / denominator;
    if (numerator % denominator !== 0n) nanos += 1n;
    let fmt = format;
    if (base === 2) {
      if (nanos > MAX_INT64 * NANO) nanos = MAX_INT64 * NANO;
      if (nanos > 0n && nanos < NANO) fmt = 'DecimalSI';
    }
    if (!s.positive) nanos = -nanos;
    const printed = keepsInputString(s, base, exponent) ? str : undefined;
    return new Quantity(nanos, fmt, printed);
  }

  /** Parses or returns undefined (no throw). */
  static tryParse(str: string): Quantity | undefined {
    try {
      return Quantity.parse(str);
    } catch {
      return undefined;
    }
  }

  /** resource.NewQuantity: an integer value. */
  static fromValue(value: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(value) * NANO, format);
  }

  /** resource.NewMilliQuantity: a value in thousandths. */
  static fromMilli(milli: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(milli) * 1_000_000n, format);
  }

  static zero(format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(0n, format);
  }

  isZero(): boolean {
    return this.nanos === 0n;
  }

  sign(): -1 | 0 | 1 {
    return this.nanos < 0n ? -1 : this.nanos > 0n ? 1 : 0;
  }

  /** Cmp: -1, 0 or 1. */
  cmp(other: Quantity): -1 | 0 | 1 {
    return this.nanos < other.nanos ? -1 : this.nanos > other.nanos ? 1 : 0;
  }

  equal(other: Quantity): boolean {
    return this.nanos === other.nanos;
  }

  /** Add: a zero receiver takes the other's format, as upstream. */
  add(other: Quantity): Quantity {
    return new Quantity(this.nanos + other.nanos, this.nanos === 0n ? other.format : this.format);
  }

  sub(other: Quantity): Quantity {
    return new Quantity(this.nanos - other.nanos, this.nanos === 0n ? other.format : this.format);
  }

  neg(): Quantity {
    return new Quantity(-this.nanos, this.format);
  }

  /** Value(): the integer value, rounded up (away from zero). */
  value(): number {
    return Number(this.ceilDiv(NANO));
  }

  /** MilliValue(): the value in thousandths, rounded up (away from zero). */
  milliValue(): number {
    return Number(this.ceilDiv(1_000_000n));
  }

  /** Value as a bigint, rounded up (away from zero). */
  valueBig(): bigint {
    return this.ceilDiv(NANO);
  }

  /** Milli-value as a bigint, rounded up (away from zero). */
  milliValueBig(): bigint {
    return this.ceilDiv(1_000_000n);
  }

  /** RoundUp(Milli): drops sub-milli precision rounding away from zero; unchanged (same printed form) when already exact. */
  roundUpMilli(): Quantity {
    if (this.nanos % 1_000_000n === 0n) return this;
    return new Quantity(this.ceilDiv(1_000_000n) * 1_000_000n, this.format);
  }

  /** Approximate value as a float (for scoring and display). */
  asApproximateFloat64(): number {
    return Number(this.nanos) / 1e9;
  }

  private ceilDiv(unit: bigint): bigint {
    const a = abs(this.nanos);
    let q = a / unit;
    if (a % unit !== 0n) q += 1n;
    return this.nanos < 0n ? -q : q;
  }

  /** The canonical string (or the caller's string when upstream keeps it). */
  toString(): string {
    return this.printed ?? canonical(this.nanos, this.format);
  }

  toJSON(): string {
    return this.toString();
  }
}

/** CanonicalizeBytes: largest suffix without fractional digits; binary falls back to decimal when inexact or small. */
function canonical(nanos: bigint, format: QuantityFormat): string {
  if (nanos === 0n) return '0';
  const negative = nanos < 0n;
  const a = abs(nanos);
  let fmt = format;
  if (fmt === 'BinarySI' && (a < 1024n * NANO || a % NANO !== 0n)) fmt = 'DecimalSI';
  let mantissa: bigint;
  let suffix: string;
  if (fmt === 'BinarySI') {
    mantissa = a / NANO;
    let exp = 0;
    while (exp < 60 && mantissa % 1024n === 0n) {
      mantissa /= 1024n;
      exp += 10;
    }
    suffix = BINARY_BY_EXP.get(exp) ?? '';
  } else {
    mantissa = a;
    let exp = -9;
    while (mantissa % 10n === 0n) {
      mantissa /= 10n;
      exp++;
    }
    const down = ((exp % 3) + 3) % 3;
    mantissa *= pow10(down);
    exp -= down;
    if (fmt === 'DecimalSI') {
      // Upstream has no suffix past E; keep E and grow the mantissa instead.
      if (exp > 18) {
        mantissa *= pow10(exp - 18);
        exp = 18;
      }
      suffix = DECIMAL_BY_EXP.get(exp) ?? '';
    } else {
      suffix = exp === 0 ? '' : `e${exp}`;
    }
  }
  return `${negative ? '-' : ''}${mantissa}${suffix}`;
}

/** ParseQuantity. */
export function parseQuantity(str: string): Quantity {
  return Quantity.parse(str);
}

/** MustParse: throws `cannot parse '<s>': <reason>`. */
export function mustParseQuantity(str: string): Quantity {
  try {
    return Quantity.parse(str);
  } catch (e) {
    throw new Error(`cannot parse '${str}': ${(e as Error).message}`, { cause: e });
  }
}
