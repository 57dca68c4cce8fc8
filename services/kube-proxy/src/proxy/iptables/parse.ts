// A small parser for iptables-restore / iptables-save text: enough of the
// rule grammar kube-proxy writes to normalise rules into iptables-save form
// and to trace packets through them.

export interface AddrMatch {
  neg: boolean;
  cidr: string;
}

export interface ParsedRule {
  chain: string;
  src?: AddrMatch;
  dst?: AddrMatch;
  proto?: string;
  /** `-m NAME` groups with their options, in order (options may start with `!`). */
  modules: { name: string; opts: string[] }[];
  target?: string;
  targetOpts: string[];
}

export interface ParsedTable {
  name: string;
  /** Chains declared with `:NAME POLICY [p:b]`, in order, with their policy (`-` for user chains). */
  chains: { name: string; policy: string }[];
  rules: ParsedRule[];
  /** Chains deleted with `-X`. */
  deleted: string[];
}

/** Splits a line into words, honouring double quotes (as iptables-restore does). */
export function tokenize(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) cur += line[++i];
      else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') {
      quoted = true;
      inWord = true;
    } else if (ch === ' ' || ch === '\t') {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quoted) throw new Error(`unterminated quote in: ${line}`);
  if (inWord) out.push(cur);
  return out;
}

/** Parses the words of one rule after `-A CHAIN` (or a jump rule's argv). */
export function parseRuleArgs(chain: string, words: string[]): ParsedRule {
  const rule: ParsedRule = { chain, modules: [], targetOpts: [] };
  let neg = false;
  let mod: { name: string; opts: string[] } | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (rule.target !== undefined) {
      rule.targetOpts.push(w);
      continue;
    }
    switch (w) {
      case '!':
        neg = true;
        continue;
      case '-s':
      case '--source':
        rule.src = { neg, cidr: words[++i]! };
        break;
      case '-d':
      case '--destination':
        rule.dst = { neg, cidr: words[++i]! };
        break;
      case '-p':
      case '--protocol':
        rule.proto = words[++i]!;
        break;
      case '-m':
      case '--match':
        mod = { name: words[++i]!, opts: [] };
        rule.modules.push(mod);
        break;
      case '-j':
      case '--jump':
        rule.target = words[++i]!;
        break;
      default: {
        if (!mod) throw new Error(`option ${w} outside a match module in chain ${chain}`);
        if (neg) mod.opts.push('!');
        mod.opts.push(w);
        // Option values follow until the next option.
        while (i + 1 < words.length && !words[i + 1]!.startsWith('-') && words[i + 1] !== '!') mod.opts.push(words[++i]!);
      }
    }
    neg = false;
  }
  return rule;
}

/** Parses iptables-restore (or -save) text into tables. */
export function parseRestore(text: string): Map<string, ParsedTable> {
  const tables = new Map<string, ParsedTable>();
  let table: ParsedTable | undefined;
  text.split('\n').forEach((raw, idx) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    try {
      if (line.startsWith('*')) {
        table = { name: line.slice(1), chains: [], rules: [], deleted: [] };
        tables.set(table.name, table);
        return;
      }
      if (!table) throw new Error('rule outside a table');
      if (line === 'COMMIT') {
        table = undefined;
        return;
      }
      if (line.startsWith(':')) {
        const [name, policy] = line.slice(1).split(/\s+/);
        table.chains.push({ name: name!, policy: policy ?? '-' });
        return;
      }
      const words = tokenize(line);
      if (words[0] === '-X') {
        table.deleted.push(words[1]!);
        return;
      }
      if (words[0] !== '-A' || !words[1]) throw new Error(`unsupported line`);
      table.rules.push(parseRuleArgs(words[1], words.slice(2)));
    } catch (err) {
      throw new Error(`line ${idx + 1} (${line}): ${(err as Error).message}`, { cause: err });
    }
  });
  return tables;
}
