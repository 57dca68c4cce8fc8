// A container's stub resolver (what musl's and glibc's getaddrinfo do): the
// container's /etc/hosts first, then real DNS queries from the pod to the
// nameservers of its /etc/resolv.conf, trying the search list per `ndots`.
// Messages are encoded with dns-packet. In pod-ip mode (compose) queries are
// UDP datagrams sent from the pod IP, so they cross the node's Service rules
// to the cluster DNS; in loopback mode (local runner) each send is
// translated at send time by the socket-LB maps (socket-lb.ts) to a CoreDNS
// pod's UDP port on 127.0.0.1 (see docs/architecture.md).

import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';
import dnsPacket, { type Answer, type Packet, type RecordType } from 'dns-packet';
import type { Decision } from './socket-lb.js';

/** resolv.conf(5) as the stub resolver reads it; defaults and caps as glibc's. */
export interface ResolvConf {
  nameservers: string[];
  search: string[];
  ndots: number;
  timeoutMs: number;
  attempts: number;
}

const MAXNS = 3;

export function parseResolvConf(text: string): ResolvConf {
  const conf: ResolvConf = { nameservers: [], search: [], ndots: 1, timeoutMs: 5000, attempts: 2 };
  for (const raw of text.split('\n')) {
    const [key, ...fields] = raw
      .replace(/[#;].*$/, '')
      .trim()
      .split(/\s+/);
    if (key === 'nameserver' && fields[0] && isIP(fields[0]) && conf.nameservers.length < MAXNS) conf.nameservers.push(fields[0]);
    if ((key === 'search' || key === 'domain') && fields.length) conf.search = fields.map((s) => s.replace(/\.$/, '')).filter((s) => s !== '');
    if (key === 'options') {
      for (const opt of fields) {
        const [name, value] = opt.split(':');
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0) continue;
        if (name === 'ndots') conf.ndots = Math.min(n, 15);
        if (name === 'timeout') conf.timeoutMs = Math.min(Math.max(n, 1), 30) * 1000;
        if (name === 'attempts') conf.attempts = Math.min(Math.max(n, 1), 5);
      }
    }
  }
  // No nameserver line: the local machine's, as glibc does.
  if (!conf.nameservers.length) conf.nameservers.push('127.0.0.1');
  return conf;
}

/** The addresses /etc/hosts gives `name` (case-insensitive, any of a line's names), IPv4 first. */
export function hostsLookup(text: string, name: string): string[] {
  const want = name.toLowerCase().replace(/\.$/, '');
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const [ip, ...names] = raw.replace(/#.*$/, '').trim().split(/\s+/);
    if (ip && isIP(ip) && names.some((n) => n.toLowerCase() === want) && !out.includes(ip)) out.push(ip);
  }
  return [...out.filter((ip) => isIP(ip) === 4), ...out.filter((ip) => isIP(ip) === 6)];
}

/**
 * The names the resolver queries, in order (res_search): a name ending in a
 * dot only as is; one with at least `ndots` dots as is first, then with each
 * search domain; a shorter one with the search domains first, then as is.
 */
export function searchCandidates(name: string, conf: Pick<ResolvConf, 'search' | 'ndots'>): string[] {
  if (name.endsWith('.')) return [name.slice(0, -1)];
  const dots = name.split('.').length - 1;
  const searched = conf.search.map((d) => `${name}.${d}`);
  return dots >= conf.ndots ? [name, ...searched] : [...searched, name];
}

/** Sends one query message to one server and waits for its answer (undefined: timed out). */
export type DnsTransport = (server: string, message: Buffer, timeoutMs: number) => Promise<Buffer | undefined>;

/**
 * UDP from `localAddress` (the pod IP in pod-ip mode) to port 53 (`port` for
 * test fixtures). With `route` (loopback mode) the datagram goes where the
 * socket-LB maps send server:port; a refusal (ICMP port unreachable) is an
 * answer-less attempt at once, an unrouted server one after the timeout.
 */
export function udpTransport(opts: { localAddress?: string; port?: number; route?: (ip: string, port: number) => Decision } = {}): DnsTransport {
  return (server, message, timeoutMs) =>
    new Promise((resolve) => {
      let to = { host: server, port: opts.port ?? 53 };
      if (opts.route) {
        const d = opts.route(server, to.port);
        if ('error' in d) {
          if (d.error === 'ECONNREFUSED') resolve(undefined);
          else setTimeout(() => resolve(undefined), timeoutMs).unref();
          return;
        }
        to = { host: d.hostIp, port: d.hostPort };
      }
      const socket = createSocket(isIP(to.host) === 6 ? 'udp6' : 'udp4');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = (b: Buffer | undefined) => {
        clearTimeout(timer);
        socket.close();
        resolve(b);
      };
      // An unreachable server (ICMP refused, no route) is one more attempt that got nothing.
      socket.on('error', () => done(undefined));
      socket.on('message', (msg) => {
        if (msg.length >= 2 && msg.readUInt16BE(0) === message.readUInt16BE(0)) done(msg);
      });
      socket.bind({ port: 0, ...(opts.localAddress ? { address: opts.localAddress } : {}) }, () => {
        timer = setTimeout(() => done(undefined), timeoutMs);
        socket.send(message, to.port, to.host);
      });
    });
}

export interface DnsReply {
  server: string;
  rcode: string;
  authoritative: boolean;
  answers: Answer[];
}

/** One question to the nameservers in turn, `attempts` rounds (res_send); undefined when none answered. */
export async function exchange(transport: DnsTransport, conf: Pick<ResolvConf, 'nameservers' | 'timeoutMs' | 'attempts'>, name: string, type: RecordType): Promise<DnsReply | undefined> {
  for (let attempt = 0; attempt < conf.attempts; attempt++) {
    for (const server of conf.nameservers) {
      const id = Math.floor(Math.random() * 65536);
      const message = dnsPacket.encode({ type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name, class: 'IN' }] });
      const raw = await transport(server, message, conf.timeoutMs);
      if (!raw) continue;
      let reply: Packet;
      try {
        reply = dnsPacket.decode(raw);
      } catch {
        continue; // A malformed answer counts as none, as res_send drops it.
      }
      const flags = reply.flags ?? 0;
      const rcode = (reply as Packet & { rcode?: string }).rcode ?? 'NOERROR';
      // SERVFAIL and REFUSED: ask the next server.
      if (rcode === 'SERVFAIL' || rcode === 'REFUSED') continue;
      return { server, rcode, authoritative: (flags & dnsPacket.AUTHORITATIVE_ANSWER) !== 0, answers: reply.answers ?? [] };
    }
  }
  return undefined;
}

/** The addresses of `type` records among answers (a CNAME chain's end included). */
export function addressesOf(answers: readonly Answer[], type: 'A' | 'AAAA'): string[] {
  return answers.flatMap((a) => (a.type === type ? [a.data] : []));
}

/** Why a name did not resolve: NXDOMAIN/no data everywhere (ENOTFOUND) or no server answered (EAI_AGAIN). */
export class ResolveError extends Error {
  constructor(
    readonly code: 'ENOTFOUND' | 'EAI_AGAIN',
    readonly hostname: string,
  ) {
    super(`getaddrinfo ${code} ${hostname}`);
  }
}

/** The files the resolver reads from the container. */
export interface ResolverFiles {
  readFile(path: string): Promise<string>;
}

const readOr = async (files: ResolverFiles, path: string) => {
  try {
    return await files.readFile(path);
  } catch {
    return '';
  }
};

/** The container's getaddrinfo: /etc/hosts, then DNS A queries per the search list; `transport` absent = no pod network. */
export async function resolveHost(name: string, files: ResolverFiles, transport: DnsTransport | undefined): Promise<{ addresses: string[]; canonical: string }> {
  if (isIP(name)) return { addresses: [name], canonical: name };
  const fromHosts = hostsLookup(await readOr(files, '/etc/hosts'), name);
  if (fromHosts.length) return { addresses: fromHosts, canonical: name };
  if (!transport) throw new ResolveError('ENOTFOUND', name);
  const conf = parseResolvConf(await readOr(files, '/etc/resolv.conf'));
  for (const candidate of searchCandidates(name, conf)) {
    const reply = await exchange(transport, conf, candidate, 'A');
    // musl stops the search when no server answers at all.
    if (!reply) throw new ResolveError('EAI_AGAIN', name);
    const addresses = addressesOf(reply.answers, 'A');
    if (reply.rcode === 'NOERROR' && addresses.length) return { addresses, canonical: candidate };
  }
  throw new ResolveError('ENOTFOUND', name);
}
