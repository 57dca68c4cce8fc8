// The schedule syntax CronJob validation accepts: robfig/cron v3's
// ParseStandard (five fields, names, ranges, steps, `?`, the `@hourly`
// descriptors and a TZ=/CRON_TZ= prefix), checked here so a bad schedule
// gets the parser's own message. The controller computes run times with the
// cron-parser library over the same text (see descriptorExpression).

interface Bounds {
  min: number;
  max: number;
  names?: readonly string[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];

/** The descriptors ParseStandard knows (besides `@every`), as five-field expressions. */
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** The five-field expression a descriptor stands for; other schedules unchanged. */
export function descriptorExpression(schedule: string): string {
  return DESCRIPTORS[schedule.trim()] ?? schedule.trim();
}

/** A valid IANA zone name as Go's time.LoadLocation takes it ("" and "UTC" are UTC). */
export function loadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC') return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return undefined;
  } catch {
    return `unknown time zone ${name}`;
  }
}

/** Go's strconv.Atoi over a field part, with robfig's wording. */
function parseInt10(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr)) throw new Error(`failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`);
  const n = Number(expr);
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, b: Bounds): number {
  const i = b.names?.indexOf(expr.toLowerCase()) ?? -1;
  if (i >= 0) return b.min === 1 ? i + 1 : i;
  return parseInt10(expr);
}

/** robfig's getRange for one comma-separated part. */
function checkRange(expr: string, b: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const singleDigit = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, b);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, b);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseInt10(rangeAndStep[1]!);
    if (singleDigit) end = b.max; // `N/step` means N-max/step
  } else if (rangeAndStep.length > 2) throw new Error(`too many slashes: ${expr}`);
  if (start < b.min) throw new Error(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new Error(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
}

/** Go's time.ParseDuration, enough to accept `@every 1h30m`. */
const GO_DURATION = /^([+-]?(\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h))+$|^0$/;

/** The parse error robfig/cron's ParseStandard reports for a schedule, or undefined when it parses. */
export function cronParseError(spec: string): string | undefined {
  try {
    let s = spec.trim();
    if (s.length === 0) return 'empty spec string';
    if (s.startsWith('TZ=') || s.startsWith('CRON_TZ=')) {
      const i = s.indexOf(' ');
      const loc = s.slice(s.indexOf('=') + 1, i < 0 ? undefined : i);
      const err = loadLocationError(loc);
      if (err) return `provided bad location ${loc}: ${err}`;
      s = i < 0 ? '' : s.slice(i).trim();
    }
    if (s.startsWith('@')) {
      if (DESCRIPTORS[s]) return undefined;
      if (s.startsWith('@every ')) {
        const d = s.slice('@every '.length);
        return GO_DURATION.test(d) ? undefined : `failed to parse duration ${s}: time: invalid duration ${JSON.stringify(d)}`;
      }
      return `unrecognized descriptor: ${s}`;
    }
    const fields = s.split(/\s+/).filter((f) => f !== '');
    if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
    fields.forEach((f, i) => {
      for (const part of f.split(',')) checkRange(part, FIELDS[i]!);
    });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
