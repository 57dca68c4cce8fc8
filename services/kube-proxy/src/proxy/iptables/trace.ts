// A packet tracer over parsed iptables rules: follows a synthetic packet
// through the nat table the way netfilter would, splitting at every
// `-m statistic` rule, so a test can see which DNAT targets a ClusterIP:port
// reaches and with what probability. Session affinity (`-m recent --rcheck`)
// is traced as a first packet: no source has been recorded yet.

import { ipv4CidrContains, parseIpv4, parseIpv4Cidr } from '@kubelab/api';
import type { ParsedRule, ParsedTable } from './parse.js';

export interface Packet {
  src: string;
  dst: string;
  protocol: 'tcp' | 'udp' | 'sctp';
  dport: number;
  /** Addresses the node owns (for `-m addrtype --dst-type LOCAL`). */
  localAddresses?: string[];
  mark?: number;
}

export interface TraceOutcome {
  probability: number;
  /** DNAT, ACCEPT (fell off the built-in chain or accepted), REJECT, DROP. */
  verdict: 'DNAT' | 'ACCEPT' | 'REJECT' | 'DROP';
  /** `ip:port` for DNAT. */
  to?: string;
  /** Whether KUBE-MARK-MASQ marked the packet (it will be masqueraded). */
  masquerade: boolean;
  /** Chains visited, in order. */
  path: string[];
}

/** An iptables `-s`/`-d` match: `a.b.c.d/n`, or a bare address meaning /32; false for what is not IPv4. */
export function cidrContains(cidr: string, ip: string): boolean {
  const net = parseIpv4Cidr(cidr.includes('/') ? cidr : `${cidr}/32`);
  const addr = parseIpv4(ip);
  return net !== undefined && addr !== undefined && ipv4CidrContains(net, addr);
}

function opt(opts: string[], name: string): string | undefined {
  const i = opts.indexOf(name);
  return i >= 0 ? opts[i + 1] : undefined;
}

/** MARK target: --or-mark, --xor-mark (restore input) or --set-xmark value/mask (save form). */
function applyMark(mark: number, o: string[]): number {
  const or = opt(o, '--or-mark');
  if (or) return mark | Number(or);
  const xor = opt(o, '--xor-mark');
  if (xor) return mark ^ Number(xor);
  const x = opt(o, '--set-xmark');
  if (x) {
    const [v, m] = x.split('/');
    const mask = m === undefined ? 0xffffffff : Number(m);
    return ((mark & ~mask) ^ Number(v)) >>> 0;
  }
  return mark;
}

interface Branch {
  p: number;
  mark: number;
  path: string[];
}

/** The probability (0, 1, or a statistic's p) that a rule matches the packet. */
function matchProbability(r: ParsedRule, pkt: Packet, mark: number): number {
  if (r.src && cidrContains(r.src.cidr, pkt.src) === r.src.neg) return 0;
  if (r.dst && cidrContains(r.dst.cidr, pkt.dst) === r.dst.neg) return 0;
  if (r.proto && r.proto !== pkt.protocol) return 0;
  let p = 1;
  for (const m of r.modules) {
    const o = m.opts;
    switch (m.name) {
      case 'tcp':
      case 'udp':
      case 'sctp': {
        const dport = opt(o, '--dport');
        if (dport !== undefined && Number(dport) !== pkt.dport) return 0;
        break;
      }
      case 'statistic':
        p *= Number(opt(o, '--probability'));
        break;
      case 'recent':
        if (o.includes('--rcheck')) return 0; // no source recorded yet
        break;
      case 'addrtype': {
        const isLocal = (ip: string) => (pkt.localAddresses ?? []).includes(ip) || cidrContains('127.0.0.0/8', ip);
        if (opt(o, '--dst-type') === 'LOCAL' && !isLocal(pkt.dst)) return 0;
        if (opt(o, '--src-type') === 'LOCAL' && !isLocal(pkt.src)) return 0;
        break;
      }
      case 'mark': {
        const neg = o[0] === '!';
        const [val, mask] = (opt(o, '--mark') ?? '0').split('/');
        const m2 = mask ? Number(mask) : 0xffffffff;
        if (((mark & m2) === Number(val)) === neg) return 0;
        break;
      }
      default:
        break; // comment, conntrack (a new connection): no effect
    }
  }
  return p;
}

/**
 * Traces a packet from a built-in chain (PREROUTING for a packet arriving,
 * OUTPUT for one the node sends) through the nat table.
 */
export function traceNat(nat: ParsedTable, pkt: Packet, start: 'PREROUTING' | 'OUTPUT' = 'PREROUTING'): TraceOutcome[] {
  const byChain = new Map<string, ParsedRule[]>();
  for (const r of nat.rules) {
    const list = byChain.get(r.chain);
    if (list) list.push(r);
    else byChain.set(r.chain, [r]);
  }
  const done: TraceOutcome[] = [];
  // KUBE-MARK-MASQ's mark (masqueradeBit 14).
  const masqMark = 0x4000;

  // Runs a chain; returns the branches that fell off its end or hit RETURN.
  const run = (chain: string, input: Branch[], depth: number): Branch[] => {
    if (depth > 32) throw new Error(`jump loop through ${chain}`);
    let live = input.map((b) => ({ ...b, path: [...b.path, chain] }));
    const returned: Branch[] = [];
    for (const r of byChain.get(chain) ?? []) {
      const next: Branch[] = [];
      for (const b of live) {
        const m = matchProbability(r, pkt, b.mark);
        if (m < 1) next.push({ ...b, p: b.p * (1 - m) });
        if (m === 0) continue;
        const hit: Branch = { ...b, p: b.p * m };
        const t = r.target;
        if (!t) next.push(hit);
        else if (t === 'RETURN') returned.push(hit);
        else if (t === 'MARK') {
          next.push({ ...hit, mark: applyMark(hit.mark, r.targetOpts) });
        } else if (t === 'DNAT') {
          done.push({ probability: hit.p, verdict: 'DNAT', to: opt(r.targetOpts, '--to-destination')!, masquerade: (hit.mark & masqMark) !== 0, path: hit.path });
        } else if (t === 'ACCEPT' || t === 'MASQUERADE' || t === 'SNAT') {
          done.push({ probability: hit.p, verdict: 'ACCEPT', masquerade: (hit.mark & masqMark) !== 0, path: hit.path });
        } else if (t === 'REJECT' || t === 'DROP') {
          done.push({ probability: hit.p, verdict: t, masquerade: false, path: hit.path });
        } else {
          if (!byChain.has(t) && !nat.chains.some((c) => c.name === t)) throw new Error(`rule in ${chain} jumps to missing chain ${t}`);
          next.push(...run(t, [hit], depth + 1).map((x) => ({ ...x, path: [...x.path, chain] })));
        }
      }
      live = next.filter((b) => b.p > 0);
    }
    return [...live, ...returned];
  };

  for (const b of run(start, [{ p: 1, mark: pkt.mark ?? 0, path: [] }], 0)) {
    done.push({ probability: b.p, verdict: 'ACCEPT', masquerade: (b.mark & masqMark) !== 0, path: b.path });
  }
  return done.filter((o) => o.probability > 0);
}
