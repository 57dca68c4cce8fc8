// The Corefile CoreDNS reads (caddyfile syntax: server blocks of plugin
// directives with optional blocks), parsed into the settings of the plugins
// kubeadm's Corefile uses. A pure function: text in, settings or an error
// with CoreDNS's wording out.

/** One directive: its name, arguments and the directives of its block. */
export interface Directive {
  name: string;
  args: string[];
  block: Directive[];
}

export interface ServerBlock {
  /** The keys before the block: `.:53` → zone `.`, port 53. */
  zones: string[];
  port: number;
  plugins: Directive[];
}

export interface KubernetesSettings {
  zones: string[];
  /** `pods disabled|insecure|verified`: kubeadm's `insecure` answers any a-b-c-d name. */
  pods: 'disabled' | 'insecure' | 'verified';
  /** Zones whose names the plugin does not know pass on to the next plugin (forward). */
  fallthrough: string[] | undefined;
  ttl: number;
}

/** The server's settings, as the plugins of kubeadm's Corefile read them. */
export interface CorednsConfig {
  port: number;
  zones: string[];
  errors: boolean;
  health?: { port: number; lameduckSeconds: number };
  ready?: { port: number };
  kubernetes?: KubernetesSettings;
  prometheus?: { port: number };
  /** `forward . /etc/resolv.conf` (a path) or addresses (`8.8.8.8`, `127.0.0.1:5353`). */
  forward?: { from: string; to: string[] };
  cache?: { ttl: number };
  loop: boolean;
  reload: boolean;
  loadbalance: boolean;
  log: boolean;
}

/** The plugins this CoreDNS build knows (what `coredns -plugins` lists, kubeadm's subset and a few neighbours). */
const KNOWN = new Set(['errors', 'health', 'ready', 'kubernetes', 'prometheus', 'forward', 'cache', 'loop', 'reload', 'loadbalance', 'log', 'hosts', 'rewrite', 'whoami']);

function tokenize(text: string): { t: string; line: number }[] {
  const out: { t: string; line: number }[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '');
    for (const m of line.matchAll(/"([^"]*)"|\{|\}|[^\s{}]+/g)) out.push({ t: m[1] ?? m[0], line: i + 1 });
  });
  return out;
}

/** Parses caddyfile syntax into server blocks; throws on unbalanced braces. */
export function parseBlocks(text: string, file = 'Corefile'): ServerBlock[] {
  const toks = tokenize(text);
  let i = 0;
  const err = (msg: string, line: number) => new Error(`${file}:${line} - Error during parsing: ${msg}`);
  // Directives of one block, up to its closing brace; a directive is the tokens of one line.
  const directives = (): Directive[] => {
    const out: Directive[] = [];
    while (i < toks.length && toks[i]!.t !== '}') {
      const first = toks[i++]!;
      const d: Directive = { name: first.t, args: [], block: [] };
      while (i < toks.length && toks[i]!.line === first.line && toks[i]!.t !== '{' && toks[i]!.t !== '}') d.args.push(toks[i++]!.t);
      if (toks[i]?.t === '{' && toks[i]!.line === first.line) {
        i++;
        d.block = directives();
        if (toks[i]?.t !== '}') throw err('Unexpected EOF', toks[toks.length - 1]?.line ?? first.line);
        i++;
      }
      out.push(d);
    }
    return out;
  };
  const blocks: ServerBlock[] = [];
  while (i < toks.length) {
    const keys: string[] = [];
    const line = toks[i]!.line;
    while (i < toks.length && toks[i]!.t !== '{') keys.push(...toks[i++]!.t.split(',').filter(Boolean));
    if (toks[i]?.t !== '{') throw err('Unexpected EOF', line);
    i++;
    const plugins = directives();
    if (toks[i]?.t !== '}') throw err('Unexpected EOF', line);
    i++;
    const zones: string[] = [];
    let port = 53;
    for (const k of keys) {
      const m = /^(?:dns:\/\/)?([^:]*)(?::(\d+))?$/.exec(k);
      if (!m) throw err(`invalid server address "${k}"`, line);
      zones.push(fqdn(m[1] || '.'));
      if (m[2]) port = Number(m[2]);
    }
    blocks.push({ zones, port, plugins });
  }
  return blocks;
}

/** A name with its trailing dot, lower case. */
export function fqdn(name: string): string {
  const n = name.toLowerCase();
  return n.endsWith('.') ? n : `${n}.`;
}

/** `:8080`, `0.0.0.0:9153` → the port; absent → def. */
function portOf(addr: string | undefined, def: number): number {
  if (!addr) return def;
  const m = /:(\d+)$/.exec(addr);
  return m ? Number(m[1]) : def;
}

/** `5s`, `1m` (Go durations of whole units) → seconds. */
function duration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text);
  if (!m) throw new Error(`time: invalid duration "${text}"`);
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600 }[m[2] as 'ms' | 's' | 'm' | 'h'];
}

/** The first server block's settings (kubeadm's Corefile has one: `.:53`). */
export function parseCorefile(text: string, file = 'Corefile'): CorednsConfig {
  const blocks = parseBlocks(text, file);
  const b = blocks[0];
  if (!b) throw new Error(`${file}:1 - Error during parsing: no server blocks`);
  const cfg: CorednsConfig = { port: b.port, zones: b.zones, errors: false, loop: false, reload: false, loadbalance: false, log: false };
  for (const p of b.plugins) {
    if (!KNOWN.has(p.name)) throw new Error(`${file}:? - Error during parsing: Unknown directive '${p.name}'`);
    const fail = (msg: string) => new Error(`plugin/${p.name}: ${msg}`);
    switch (p.name) {
      case 'errors':
      case 'loop':
      case 'reload':
      case 'loadbalance':
      case 'log':
        cfg[p.name] = true;
        break;
      case 'health': {
        const lame = p.block.find((d) => d.name === 'lameduck');
        cfg.health = { port: portOf(p.args[0], 8080), lameduckSeconds: lame?.args[0] ? duration(lame.args[0]) : 0 };
        break;
      }
      case 'ready':
        cfg.ready = { port: portOf(p.args[0], 8181) };
        break;
      case 'prometheus':
        cfg.prometheus = { port: portOf(p.args[0], 9153) };
        break;
      case 'cache': {
        const ttl = p.args[0] === undefined ? 3600 : Number(p.args[0]);
        if (!Number.isInteger(ttl) || ttl < 0) throw fail(`invalid TTL "${p.args[0]}"`);
        cfg.cache = { ttl };
        break;
      }
      case 'forward':
        if (p.args.length < 2) throw fail('Wrong argument count or unexpected line ending after');
        cfg.forward = { from: fqdn(p.args[0]!), to: p.args.slice(1) };
        break;
      case 'kubernetes': {
        const k: KubernetesSettings = { zones: (p.args.length ? p.args : b.zones).map(fqdn), pods: 'disabled', fallthrough: undefined, ttl: 5 };
        for (const d of p.block) {
          if (d.name === 'pods') {
            if (!['disabled', 'insecure', 'verified'].includes(d.args[0] ?? '')) throw fail(`pods: value must be one of disabled, verified or insecure`);
            k.pods = d.args[0] as KubernetesSettings['pods'];
          } else if (d.name === 'fallthrough') k.fallthrough = d.args.length ? d.args.map(fqdn) : ['.'];
          else if (d.name === 'ttl') {
            const t = Number(d.args[0]);
            if (!Number.isInteger(t) || t < 0 || t > 3600) throw fail(`ttl must be in range [0, 3600]: ${d.args[0]}`);
            k.ttl = t;
          }
        }
        cfg.kubernetes = k;
        break;
      }
    }
  }
  return cfg;
}
