// The nftables ruleset as data: one table of chains, sets and maps
// (sigs.k8s.io/knftables' objects), printable as an `nft -f` script and in
// the `nft list ruleset` form.

export interface NftBaseChain {
  type: 'filter' | 'nat';
  hook: 'prerouting' | 'input' | 'forward' | 'output' | 'postrouting';
  priority: number;
}

export interface NftRule {
  rule: string;
  comment?: string;
}

export interface NftChain {
  name: string;
  base?: NftBaseChain;
  comment?: string;
  rules: NftRule[];
}

export interface NftElement {
  key: string;
  /** The verdict of a map element (`goto chain`, `drop`). */
  value?: string;
  comment?: string;
}

export interface NftSet {
  kind: 'set' | 'map';
  name: string;
  type: string;
  flags?: string[];
  /** Element timeout in seconds. */
  timeout?: number;
  comment?: string;
  elements: NftElement[];
}

/** The chains and affinity sets of one service port: what a partial sync rewrites when the Service changed. */
export interface NftUnit {
  /** `namespace/name` of the Service. */
  service: string;
  chains: string[];
  sets: string[];
}

export interface NftRuleset {
  family: 'ip';
  table: string;
  comment: string;
  chains: NftChain[];
  sets: NftSet[];
  /** Rules in service/endpoint chains plus map/set elements (what a sync programs). */
  ruleCount: number;
  /** Per service port, in service-port order (names into chains / sets). */
  units: NftUnit[];
}

function q(s: string): string {
  return `"${s}"`;
}

function elementText(e: NftElement): string {
  return `${e.key}${e.comment ? ` comment ${q(e.comment)}` : ''}${e.value ? ` : ${e.value}` : ''}`;
}

export interface NftScriptOptions {
  /** Services (`namespace/name`) whose chains are rewritten; every unit when undefined (a full sync). */
  services?: ReadonlySet<string>;
  /** Write the top-level chains, maps and sets (false: a batch of service chains only). */
  top?: boolean;
  /** Service chains no longer used: flushed now, deleted by a later sync (they may still be referenced until this commits). */
  staleChains?: string[];
  /** Affinity sets no longer used: deleted at once. */
  staleSets?: string[];
  /** Affinity sets whose timeout changed: deleted and created again. */
  recreateSets?: ReadonlySet<string>;
}

function setLine(verb: string, t: string, s: NftSet): string {
  const props = [`type ${s.type} ;`];
  if (s.flags?.length) props.push(`flags ${s.flags.join(',')} ;`);
  if (s.timeout !== undefined) props.push(`timeout ${s.timeout}s ;`);
  if (s.comment) props.push(`comment ${q(s.comment)} ;`);
  return `${verb} ${s.kind} ${t} ${s.name} { ${props.join(' ')} }`;
}

function chainLine(t: string, c: NftChain): string {
  const props: string[] = [];
  if (c.base) props.push(`type ${c.base.type} hook ${c.base.hook} priority ${c.base.priority} ;`);
  if (c.comment) props.push(`comment ${q(c.comment)} ;`);
  return `add chain ${t} ${c.name}${props.length ? ` { ${props.join(' ')} }` : ''}`;
}

/**
 * The `nft -f` transaction for one sync, as upstream's knftables transaction:
 * every chain written is added (a no-op when it exists) and flushed, then
 * filled; the maps are flushed and refilled; affinity sets are only added,
 * so the clients they remember survive the sync. Nothing else is touched:
 * the table is never deleted and re-created.
 */
export function toNftScript(rs: NftRuleset, opts: NftScriptOptions = {}): string {
  const t = `${rs.family} ${rs.table}`;
  const top = opts.top ?? true;
  const unitChains = new Set<string>();
  const unitSets = new Set<string>();
  for (const u of rs.units) {
    for (const c of u.chains) unitChains.add(c);
    for (const s of u.sets) unitSets.add(s);
  }
  const written = new Set<string>();
  const writtenSets = new Set<string>();
  for (const u of rs.units) {
    if (opts.services && !opts.services.has(u.service)) continue;
    for (const c of u.chains) written.add(c);
    for (const s of u.sets) writtenSets.add(s);
  }
  const out = [`add table ${t} { comment ${q(rs.comment)} ; }`];
  const chains = rs.chains.filter((c) => (unitChains.has(c.name) ? written.has(c.name) : top || c.name === 'mark-for-masquerade'));
  for (const c of chains) out.push(chainLine(t, c), `flush chain ${t} ${c.name}`);
  for (const c of opts.staleChains ?? []) out.push(`flush chain ${t} ${c}`);
  const sets = rs.sets.filter((s) => (unitSets.has(s.name) ? writtenSets.has(s.name) : top));
  for (const s of sets) {
    if (unitSets.has(s.name)) {
      if (opts.recreateSets?.has(s.name)) out.push(`delete set ${t} ${s.name}`);
      out.push(setLine('add', t, s));
    } else {
      out.push(setLine('add', t, s), `flush ${s.kind} ${t} ${s.name}`);
    }
  }
  for (const c of chains) for (const r of c.rules) out.push(`add rule ${t} ${c.name} ${r.rule}${r.comment ? ` comment ${q(r.comment)}` : ''}`);
  for (const s of sets) for (const e of s.elements) out.push(`add element ${t} ${s.name} { ${elementText(e)} }`);
  for (const s of opts.staleSets ?? []) out.push(`delete set ${t} ${s}`);
  return out.join('\n') + '\n';
}

/** How nft prints a base chain priority: dstnat/srcnat names where nft uses them, else the number. */
function priorityText(b: NftBaseChain): string {
  const std = b.hook === 'prerouting' ? ['dstnat', -100] : b.hook === 'postrouting' ? ['srcnat', 100] : undefined;
  if (!std) return String(b.priority);
  const [name, v] = std as [string, number];
  const d = b.priority - v;
  if (d === 0) return name;
  return Math.abs(d) <= 10 ? `${name} ${d < 0 ? '-' : '+'} ${Math.abs(d)}` : String(b.priority);
}

/**
 * Makes two `nft list` texts comparable: nft prints set elements in its own
 * (hash) order and packs short ones several to a line, so element lists are
 * put one per line and sorted.
 */
export function normalizeNftList(text: string): string {
  return text
    .replace(/elements = \{([^}]*)\}/g, (_m, body: string) => {
      const items = body
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
        .sort();
      return `elements = {\n${items.join('\n')}\n}`;
    })
    .trim();
}

function hex8(v: string): string {
  return `0x${Number(v).toString(16).padStart(8, '0')}`;
}

/** A rule as `nft list` prints it back (the normalisations nft applies to our rules). */
export function listRuleText(rule: string): string {
  return rule
    .replace(/^mark and (0x[0-9a-f]+) == 0 /, (_m, v: string) => `meta mark & ${hex8(v)} == 0x00000000 `)
    .replace(/^mark set mark or (0x[0-9a-f]+)$/, (_m, v: string) => `meta mark set meta mark | ${hex8(v)}`)
    .replace(/^mark set mark xor (0x[0-9a-f]+)$/, (_m, v: string) => `meta mark set meta mark ^ ${hex8(v)}`)
    .replace(/daddr \{ ([^,{}]+) \}/, 'daddr $1');
}

function durationText(seconds: number): string {
  const parts: string[] = [];
  let s = seconds;
  for (const [unit, n] of [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
  ] as const) {
    if (s >= n) {
      parts.push(`${Math.floor(s / n)}${unit}`);
      s %= n;
    }
  }
  if (s > 0 || parts.length === 0) parts.push(`${s}s`);
  return parts.join('');
}

/** The table as `nft list ruleset` prints it. */
export function toNftList(rs: NftRuleset): string {
  const out = [`table ${rs.family} ${rs.table} {`, `\tcomment ${q(rs.comment)}`];
  const blocks: string[][] = [];
  for (const s of rs.sets) {
    const b = [`\t${s.kind} ${s.name} {`, `\t\ttype ${s.type}`];
    if (s.flags?.includes('timeout')) b.push('\t\tsize 65535');
    if (s.flags?.length) b.push(`\t\tflags ${s.flags.join(',')}`);
    if (s.timeout !== undefined) b.push(`\t\ttimeout ${durationText(s.timeout)}`);
    if (s.comment) b.push(`\t\tcomment ${q(s.comment)}`);
    if (s.elements.length) b.push(`\t\telements = { ${s.elements.map(elementText).join(',\n\t\t\t     ')} }`);
    b.push('\t}');
    blocks.push(b);
  }
  for (const c of rs.chains) {
    const b = [`\tchain ${c.name} {`];
    if (c.comment) b.push(`\t\tcomment ${q(c.comment)}`);
    if (c.base) b.push(`\t\ttype ${c.base.type} hook ${c.base.hook} priority ${priorityText(c.base)}; policy accept;`);
    for (const r of c.rules) b.push(`\t\t${listRuleText(r.rule)}${r.comment ? ` comment ${q(r.comment)}` : ''}`);
    b.push('\t}');
    blocks.push(b);
  }
  out.push(blocks.map((b) => b.join('\n')).join('\n\n'), '}');
  return out.join('\n') + '\n';
}
