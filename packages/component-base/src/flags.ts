// Command-line flags in the upstream style (`--node-monitor-grace-period=50s`,
// `--v=2`): each component declares its flags with their upstream names and
// defaults; every flag can also come from the environment as
// KUBELAB_<NAME_WITH_UNDERSCORES> (how the compose file sets them).

import { readFileSync } from 'node:fs';
import { parseDuration } from './duration.js';

type FlagKind = 'string' | 'int' | 'float' | 'bool' | 'duration' | 'stringArray';

interface FlagDef {
  kind: FlagKind;
  help: string;
  default: unknown;
}

type ValueOf<K extends FlagKind> = K extends 'string' ? string : K extends 'int' | 'float' ? number : K extends 'bool' ? boolean : K extends 'duration' ? number : string[];

export class FlagError extends Error {
  override name = 'FlagError';
}

/** The file a flag names (a certificate, a key, a CA bundle), as text; unreadable: a FlagError naming the flag. */
export function readFlagFile(flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new FlagError(`--${flag}: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** A set of flags; durations parse to milliseconds. */
export class FlagSet<T extends Record<string, unknown> = Record<never, never>> {
  private readonly defs = new Map<string, FlagDef>();

  constructor(readonly command: string) {}

  private add<N extends string, K extends FlagKind>(name: N, kind: K, def: ValueOf<K>, help: string) {
    if (this.defs.has(name)) throw new Error(`flag --${name} defined twice`);
    this.defs.set(name, { kind, help, default: def });
    return this as unknown as FlagSet<T & Record<N, ValueOf<K>>>;
  }

  string<N extends string>(name: N, def: string, help: string) {
    return this.add(name, 'string', def, help);
  }
  int<N extends string>(name: N, def: number, help: string) {
    return this.add(name, 'int', def, help);
  }
  float<N extends string>(name: N, def: number, help: string) {
    return this.add(name, 'float', def, help);
  }
  bool<N extends string>(name: N, def: boolean, help: string) {
    return this.add(name, 'bool', def, help);
  }
  /** A Go-style duration (`10s`, `5m0s`, `1h`); the value is in milliseconds. */
  duration<N extends string>(name: N, defMs: number, help: string) {
    return this.add(name, 'duration', defMs, help);
  }
  stringArray<N extends string>(name: N, def: string[], help: string) {
    return this.add(name, 'stringArray', def, help);
  }

  has(name: string): boolean {
    return this.defs.has(name);
  }

  usage(): string {
    const lines = [`Usage: ${this.command} [flags]`, '', 'Flags:'];
    for (const [name, d] of this.defs) {
      const def = d.kind === 'duration' ? `${d.default}ms` : JSON.stringify(d.default);
      lines.push(`      --${name} ${d.kind === 'bool' ? '' : d.kind}`.padEnd(48) + `${d.help} (default ${def})`);
    }
    return lines.join('\n');
  }

  private convert(name: string, d: FlagDef, raw: string): unknown {
    switch (d.kind) {
      case 'string':
        return raw;
      case 'int': {
        if (!/^-?\d+$/.test(raw)) throw new FlagError(`invalid argument "${raw}" for "--${name}" flag: not an integer`);
        return Number(raw);
      }
      case 'float': {
        const n = Number(raw);
        if (raw.trim() === '' || Number.isNaN(n)) throw new FlagError(`invalid argument "${raw}" for "--${name}" flag: not a number`);
        return n;
      }
      case 'bool':
        if (raw === 'true' || raw === '1') return true;
        if (raw === 'false' || raw === '0') return false;
        throw new FlagError(`invalid argument "${raw}" for "--${name}" flag: not a boolean`);
      case 'duration':
        try {
          return parseDuration(raw);
        } catch (e) {
          throw new FlagError(`invalid argument "${raw}" for "--${name}" flag: ${(e as Error).message}`);
        }
      case 'stringArray':
        return raw === '' ? [] : raw.split(',');
    }
  }

  /**
   * Parses argv (without node and script); unknown flags are an error unless
   * `allowUnknown`, in which case they are returned for another owner.
   */
  parse(argv: string[], env: NodeJS.ProcessEnv = process.env, opts: { allowUnknown?: boolean } = {}): { values: T; rest: string[] } {
    // The local runner asks each binary which flags it owns, so upstream flag
    // names given to `kubelab up` reach the component that owns them.
    if (env.KUBELAB_PRINT_FLAGS === '1') {
      process.stdout.write(JSON.stringify({ command: this.command, flags: [...this.defs.keys()] }) + '\n');
      process.exit(0);
    }
    const values: Record<string, unknown> = {};
    for (const [name, d] of this.defs) {
      const envName = `KUBELAB_${name.replace(/[-.]/g, '_').toUpperCase()}`;
      const fromEnv = env[envName];
      values[name] = fromEnv !== undefined && fromEnv !== '' ? this.convert(name, d, fromEnv) : structuredClone(d.default);
    }
    const rest: string[] = [];
    const repeated = new Set<string>();
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i]!;
      if (!arg.startsWith('-') || arg === '-') {
        rest.push(arg);
        continue;
      }
      const body = arg.replace(/^--?/, '');
      const eq = body.indexOf('=');
      const name = eq >= 0 ? body.slice(0, eq) : body;
      const d = this.defs.get(name);
      if (!d) {
        if (name === 'help' || name === 'h') throw new FlagError(this.usage());
        if (!opts.allowUnknown) throw new FlagError(`unknown flag: --${name}`);
        rest.push(arg);
        if (eq < 0 && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) rest.push(argv[++i]!);
        continue;
      }
      let raw: string;
      if (eq >= 0) raw = body.slice(eq + 1);
      else if (d.kind === 'bool') raw = 'true';
      else {
        const next = argv[i + 1];
        if (next === undefined) throw new FlagError(`flag needs an argument: --${name}`);
        raw = next;
        i++;
      }
      const v = this.convert(name, d, raw);
      // A repeated array flag appends; its first use replaces the default.
      if (d.kind === 'stringArray' && repeated.has(name)) values[name] = [...(values[name] as string[]), ...(v as string[])];
      else values[name] = v;
      repeated.add(name);
    }
    return { values: values as T, rest };
  }
}
