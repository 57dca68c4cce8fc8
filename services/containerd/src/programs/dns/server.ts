// One CoreDNS server block's plugin chain for kubeadm's Corefile: metrics →
// cache → kubernetes → forward, with errors and loadbalance. handle() takes
// a query message and returns the reply message; the listeners (UDP, TCP)
// and the API watch live in the program (../coredns.ts).

import * as dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, Packet } from 'dns-packet';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EndpointSlice, KubeObject, Service } from '@kubelab/api';
import { DnsCache, type CachedReply } from './cache.js';
import type { CorednsConfig } from './corefile.js';
import { forwardQuery, type Upstream } from './forward.js';
import { answer, indexCluster, type ClusterIndex } from './records.js';

import { COREDNS_VERSION } from './version.js';

export { COREDNS_VERSION };
const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED'] as const;

export interface ServerObjects {
  services: Map<string, KubeObject>;
  slices: Map<string, KubeObject>;
  namespaces: Map<string, KubeObject>;
}

export class DnsServer {
  readonly objects: ServerObjects = { services: new Map(), slices: new Map(), namespaces: new Map() };
  readonly registry = new Registry();
  private index: ClusterIndex | undefined;
  private serial = Math.floor(Date.now() / 1000);
  private readonly cache: DnsCache | undefined;
  private readonly server: string;
  private readonly zone: string;
  private readonly requests: Counter;
  private readonly responses: Counter;
  private readonly duration: Histogram;
  private readonly hits: Counter;
  private readonly misses: Counter;

  constructor(
    private readonly cfg: CorednsConfig,
    /** The forward plugin's nameservers (resolved by the program from its TO arguments). */
    private readonly upstreams: () => readonly Upstream[],
    private readonly logError: (line: string) => void = () => {},
  ) {
    this.cache = cfg.cache ? new DnsCache(cfg.cache.ttl) : undefined;
    this.server = `dns://:${cfg.port}`;
    this.zone = cfg.zones[0] ?? '.';
    const r = [this.registry];
    new Gauge({
      name: 'coredns_build_info',
      help: 'A metric with a constant 1 value labeled by version, revision, and goversion from which CoreDNS was built.',
      labelNames: ['version', 'revision', 'goversion'],
      registers: r,
    }).set({ version: COREDNS_VERSION, revision: 'a6338e9', goversion: 'go1.21.11' }, 1);
    const enabled = new Gauge({
      name: 'coredns_plugin_enabled',
      help: 'A metric that indicates whether a plugin is enabled on per server and zone basis.',
      labelNames: ['server', 'zone', 'view', 'name'],
      registers: r,
    });
    for (const name of ['errors', 'health', 'ready', 'kubernetes', 'prometheus', 'forward', 'cache', 'loop', 'reload', 'loadbalance'])
      if (name !== 'health' && name !== 'ready' && name !== 'prometheus' && (cfg as unknown as Record<string, unknown>)[name]) enabled.set({ server: this.server, zone: this.zone, view: '', name }, 1);
    this.requests = new Counter({
      name: 'coredns_dns_requests_total',
      help: 'Counter of DNS requests made per zone, protocol and family.',
      labelNames: ['server', 'zone', 'view', 'proto', 'family', 'type'],
      registers: r,
    });
    this.responses = new Counter({ name: 'coredns_dns_responses_total', help: 'Counter of response status codes.', labelNames: ['server', 'zone', 'view', 'rcode', 'plugin'], registers: r });
    this.duration = new Histogram({
      name: 'coredns_dns_request_duration_seconds',
      help: 'Histogram of the time (in seconds) each request took per zone.',
      labelNames: ['server', 'zone', 'view', 'type'],
      buckets: [0.00025, 0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.024, 2.048, 4.096, 8.192],
      registers: r,
    });
    this.hits = new Counter({ name: 'coredns_cache_hits_total', help: 'The count of cache hits.', labelNames: ['server', 'type', 'zones', 'view'], registers: r });
    this.misses = new Counter({
      name: 'coredns_cache_misses_total',
      help: 'The count of cache misses. Deprecated, derive misses from cache hits/requests counters.',
      labelNames: ['server', 'zones', 'view'],
      registers: r,
    });
    const cache = this.cache;
    const server = this.server;
    const zone = this.zone;
    new Gauge({
      name: 'coredns_cache_entries',
      help: 'The number of elements in the cache.',
      labelNames: ['server', 'type', 'zones', 'view'],
      registers: r,
      collect() {
        if (!cache) return;
        for (const t of ['success', 'denial'] as const) this.set({ server, type: t, zones: zone, view: '' }, cache.size(t));
      },
    });
  }

  /** The watched objects changed: the index is rebuilt on the next query, the SOA serial moves on. */
  changed(): void {
    this.index = undefined;
    this.serial = Math.floor(Date.now() / 1000);
  }

  private clusterIndex(): ClusterIndex {
    this.index ??= indexCluster(
      this.objects.services.values() as Iterable<Service>,
      this.objects.slices.values() as Iterable<EndpointSlice>,
      [...this.objects.namespaces.values()].map((n) => n.metadata?.name ?? ''),
      (this.cfg.kubernetes?.zones[0] ?? 'cluster.local.').replace(/\.$/, ''),
      this.serial,
    );
    return this.index;
  }

  /** One query message in, its reply message out (undefined: nothing to answer, e.g. a reply or garbage). */
  async handle(msg: Buffer, proto: 'udp' | 'tcp', family: 4 | 6): Promise<Buffer | undefined> {
    const t0 = process.hrtime.bigint();
    let q: DecodedPacket;
    try {
      q = dnsPacket.decode(msg);
    } catch {
      return undefined;
    }
    if (q.type !== 'query') return undefined;
    const question = q.questions?.[0];
    const qtype = question?.type ?? 'A';
    this.requests.inc({ server: this.server, zone: this.zone, view: '', proto, family: family === 6 ? '2' : '1', type: qtype });
    const rd = ((q.flags ?? 0) & dnsPacket.RECURSION_DESIRED) !== 0;
    const edns = q.additionals?.find((a) => a.type === 'OPT') as { udpPayloadSize?: number } | undefined;
    const reply = (r: CachedReply, plugin: string, authoritative: boolean): Buffer => {
      const packet: Packet = {
        type: 'response',
        id: q.id ?? 0,
        // dns-packet encodes the rcode from the flags' low four bits.
        flags: (authoritative ? dnsPacket.AUTHORITATIVE_ANSWER : 0) | (rd ? dnsPacket.RECURSION_DESIRED : 0) | dnsPacket.RECURSION_AVAILABLE | rcodeNumber(r.rcode),
        questions: q.questions ?? [],
        answers: this.cfg.loadbalance ? shuffleAddresses(r.answers) : r.answers,
        authorities: r.authority,
        additionals: [...r.additionals, ...(edns ? [{ name: '.', type: 'OPT' as const, udpPayloadSize: 1232, flags: 0, options: [] }] : [])],
      } as Packet;
      let out = dnsPacket.encode(packet);
      // Over UDP a reply larger than the client takes is truncated (TC): it asks again over TCP.
      if (proto === 'udp' && out.length > (edns?.udpPayloadSize ?? 512))
        out = dnsPacket.encode({ ...packet, flags: (packet.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE, answers: [], authorities: [], additionals: [] } as Packet);
      this.responses.inc({ server: this.server, zone: this.zone, view: '', rcode: r.rcode, plugin });
      this.duration.observe({ server: this.server, zone: this.zone, view: '', type: qtype }, Number(process.hrtime.bigint() - t0) / 1e9);
      return out;
    };
    const fail = (rcode: (typeof RCODES)[number], plugin = ''): Buffer => reply({ rcode, answers: [], authority: [], additionals: [] }, plugin, false);
    if (!question || (q.questions?.length ?? 0) !== 1) return fail('FORMERR');

    const cacheKey = `${question.name.toLowerCase()}/${qtype}/${rd ? 1 : 0}`;
    const now = Date.now();
    if (this.cache) {
      const hit = this.cache.get(cacheKey, now);
      if (hit) {
        this.hits.inc({ server: this.server, type: hit.kind, zones: this.zone, view: '' });
        return reply(hit.reply, 'cache', hit.reply.aa === true);
      }
      this.misses.inc({ server: this.server, zones: this.zone, view: '' });
    }

    const k = this.cfg.kubernetes;
    const mine = k ? answer(question.name, qtype, this.clusterIndex(), k) : undefined;
    if (mine) {
      const named: CachedReply = { ...mine, aa: true, answers: mine.answers.map((a) => ({ ...a, name: question.name })) as Answer[] };
      this.cache?.set(cacheKey, named, now);
      return reply(named, 'kubernetes', true);
    }
    if (!this.cfg.forward) return fail('SERVFAIL');
    const upstreams = this.upstreams();
    const raw = upstreams.length ? await forwardQuery(dnsPacket.encode({ type: 'query', id: q.id ?? 0, flags: q.flags ?? 0, questions: [question] }), upstreams) : undefined;
    if (!raw) {
      if (this.cfg.errors)
        this.logError(
          `[ERROR] plugin/errors: 2 ${question.name}. ${qtype}: ${upstreams.length ? `read udp: i/o timeout (upstreams ${upstreams.map((u) => `${u.host}:${u.port}`).join(', ')})` : 'no nameservers'}`,
        );
      return fail('SERVFAIL', 'forward');
    }
    let up: DecodedPacket;
    try {
      up = dnsPacket.decode(raw);
    } catch {
      return fail('SERVFAIL', 'forward');
    }
    const forwarded: CachedReply = {
      rcode: (up as { rcode?: string }).rcode ?? 'NOERROR',
      answers: up.answers ?? [],
      authority: up.authorities ?? [],
      additionals: (up.additionals ?? []).filter((a) => a.type !== 'OPT'),
    };
    this.cache?.set(cacheKey, forwarded, now);
    return reply(forwarded, 'forward', false);
  }
}

/** An rcode's number (RFC 1035 §4.1.1); one this server never sends is SERVFAIL. */
function rcodeNumber(rcode: string): number {
  const i = (RCODES as readonly string[]).indexOf(rcode);
  return i < 0 ? 2 : i;
}

/** The loadbalance plugin: A and AAAA records in a random order (round robin for clients that take the first). */
function shuffleAddresses(answers: readonly Answer[]): Answer[] {
  const addr = answers.filter((a) => a.type === 'A' || a.type === 'AAAA');
  if (addr.length < 2) return [...answers];
  for (let i = addr.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [addr[i], addr[j]] = [addr[j]!, addr[i]!];
  }
  return [...answers.filter((a) => a.type !== 'A' && a.type !== 'AAAA'), ...addr];
}
