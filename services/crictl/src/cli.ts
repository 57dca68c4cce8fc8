// A small urfave/cli v2 flag parser, as crictl's commands use it: flags come
// before the arguments (parsing stops at the first argument or `--`), long
// names take `--name value` or `--name=value`, and with short option handling
// booleans combine (`-aq`, `-it`).

export type FlagType = 'bool' | 'string' | 'int' | 'strings' | 'duration';

export interface FlagSpec {
  name: string;
  aliases?: string[];
  type: FlagType;
  value?: string | number | boolean;
}

export type FlagValues = Record<string, string | number | boolean | string[] | undefined>;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Go's time.ParseDuration for the forms crictl's --timeout takes (2s, 500ms, 1m30s) → milliseconds. */
export function parseDuration(s: string): number {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = re.exec(s))) {
    total += Number(m[1]) * units[m[2]!]!;
    end = re.lastIndex;
  }
  if (end !== s.length || end === 0) throw new UsageError(`invalid value "${s}" for flag -timeout: parse error`);
  return total;
}

export function parseFlags(args: string[], specs: FlagSpec[]): { flags: FlagValues; set: Set<string>; args: string[] } {
  const byName = new Map<string, FlagSpec>();
  for (const s of specs) for (const n of [s.name, ...(s.aliases ?? [])]) byName.set(n, s);
  const flags: FlagValues = {};
  for (const s of specs) flags[s.name] = s.type === 'strings' ? [] : s.value;
  const set = new Set<string>();
  let i = 0;
  const assign = (spec: FlagSpec, raw: string | undefined, shown: string) => {
    set.add(spec.name);
    if (spec.type === 'bool') {
      flags[spec.name] = raw === undefined ? true : raw === 'true' || raw === '1';
      return;
    }
    if (raw === undefined) {
      if (i + 1 >= args.length) throw new UsageError(`flag needs an argument: ${shown}`);
      raw = args[++i]!;
    }
    if (spec.type === 'int') {
      if (!/^-?\d+$/.test(raw)) throw new UsageError(`invalid value "${raw}" for flag ${shown}: parse error`);
      flags[spec.name] = Number(raw);
    } else if (spec.type === 'duration') flags[spec.name] = parseDuration(raw);
    else if (spec.type === 'strings') (flags[spec.name] as string[]).push(...raw.split(','));
    else flags[spec.name] = raw;
  };
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    const long = a.startsWith('--');
    const body = a.slice(long ? 2 : 1);
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const raw = eq >= 0 ? body.slice(eq + 1) : undefined;
    const spec = byName.get(name);
    if (spec) {
      assign(spec, raw, a.split('=')[0]!);
      continue;
    }
    // Short option handling: -aq is -a -q when every letter is a boolean flag.
    const letters = !long && eq < 0 ? [...name].map((c) => byName.get(c)) : [];
    if (letters.length > 1 && letters.every((s) => s?.type === 'bool')) {
      for (const s of letters) assign(s!, undefined, `-${s!.name}`);
      continue;
    }
    throw new UsageError(`flag provided but not defined: -${name}`);
  }
  return { flags, set, args: args.slice(i) };
}
