// The coredns image's binary: `/coredns -conf /etc/coredns/Corefile` reads
// its Corefile (kubeadm's, from the `coredns` ConfigMap), watches Services,
// EndpointSlices and Namespaces through the API with the pod's
// ServiceAccount (client-go's in-cluster config), and serves DNS on 53/UDP
// and 53/TCP, /health on :8080, /ready on :8181 and Prometheus metrics on
// :9153. The answers are dns/records.ts's; the chain is dns/server.ts's.

import { createHash } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';
import * as dnsPacket from 'dns-packet';
import { defineCommand, type Command } from 'just-bash';
import type { ProgramProcess } from '../program-process.js';
import type { Listener } from '../network.js';
import { parseCorefile, type CorednsConfig } from './dns/corefile.js';
import { parseUpstream, resolvConfNameservers, type Upstream } from './dns/forward.js';
import { reflect, type ApiConnection } from './dns/kube.js';
import type { DnsServer } from './dns/server.js';
import { COREDNS_VERSION } from './dns/version.js';
import { ok, option, untilSignal } from './util.js';

const SA_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
/** The `kubernetes` Service's ClusterIP and port: where in-cluster config points without the Service variables. */
const DEFAULT_API = { host: '10.96.0.1', port: 443 };
/** The largest DNS-over-TCP message a connection may buffer before it is dropped. */
const MAX_TCP_BUFFER = 65_537;

/**
 * Where the API is: the Service variables the kubelet sets (KUBERNETES_SERVICE_HOST/PORT), dialled from
 * the pod's network; in the local runner, which has no pod network, KUBELAB_APISERVER names the
 * apiserver's loopback address, dialled from the host as a hostNetwork pod would.
 */
export function apiEndpoint(env: Record<string, string>): { host: string; port: number; fromHost: boolean } {
  if (env.KUBELAB_APISERVER) {
    const u = new URL(env.KUBELAB_APISERVER);
    return { host: u.hostname, port: Number(u.port || 443), fromHost: true };
  }
  const port = Number(env.KUBERNETES_SERVICE_PORT);
  return { host: env.KUBERNETES_SERVICE_HOST || DEFAULT_API.host, port: Number.isInteger(port) && port > 0 ? port : DEFAULT_API.port, fromHost: false };
}

function tcpDns(server: DnsServer): { tcp: (socket: Socket) => void } {
  return {
    tcp: (socket) => {
      let buf = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        buf = Buffer.concat([buf, chunk]);
        if (buf.length > MAX_TCP_BUFFER) return void socket.destroy();
        while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
          const msg = buf.subarray(2, 2 + buf.readUInt16BE(0));
          buf = buf.subarray(2 + msg.length);
          void server.handle(Buffer.from(msg), 'tcp', socket.remoteFamily === 'IPv6' ? 6 : 4).then((out) => {
            if (!out || socket.destroyed) return;
            const len = Buffer.alloc(2);
            len.writeUInt16BE(out.length);
            socket.write(Buffer.concat([len, out]));
          });
        }
      });
    },
  };
}

export function coredns(proc: ProgramProcess, env: () => Record<string, string>): Command {
  return defineCommand('coredns', async (args) => {
    if (args.includes('-version')) return ok(`CoreDNS-${COREDNS_VERSION}\nlinux/amd64, go1.21.11, a6338e9\n`);
    if (args.includes('-plugins'))
      return ok(
        'Server types:\n  dns\n\nCaddyfile loaders:\n  flag\n  default\n\nOther plugins:\n  dns.cache\n  dns.errors\n  dns.forward\n  dns.health\n  dns.kubernetes\n  dns.loadbalance\n  dns.loop\n  dns.prometheus\n  dns.ready\n  dns.reload\n',
      );
    const confPath = option(args, '-conf') ?? 'Corefile';
    let text: string;
    let cfg: CorednsConfig;
    try {
      text = await proc.fs.readFile(confPath);
    } catch {
      return ok('', 1, `open ${confPath}: no such file or directory\n`);
    }
    try {
      cfg = parseCorefile(text, confPath);
    } catch (e) {
      return ok('', 1, `${(e as Error).message}\n`);
    }
    const info = (line: string) => proc.write('stdout', `${line}\n`);

    // forward's nameservers: a file (the pod's resolv.conf) is read now, as CoreDNS reads it at start.
    const upstreams: Upstream[] = [];
    for (const to of cfg.forward?.to ?? []) {
      if (to.startsWith('/')) {
        const text = await proc.fs.readFile(to).catch(() => '');
        for (const ns of resolvConfNameservers(text)) upstreams.push({ host: ns, port: 53 });
      } else {
        const u = parseUpstream(to);
        if (u) upstreams.push(u);
      }
    }
    // Loaded when CoreDNS runs (with its metrics library), not by every shim that only might run it.
    const { DnsServer } = await import('./dns/server.js');
    const server = new DnsServer(cfg, () => upstreams, info);

    // The API connection (in-cluster config).
    const ep = apiEndpoint(env());
    let ca: string;
    try {
      ca = await proc.fs.readFile(`${SA_DIR}/ca.crt`);
    } catch {
      return ok('', 1, `[FATAL] plugin/kubernetes: open ${SA_DIR}/token: no such file or directory\n`);
    }
    const api: ApiConnection = {
      host: ep.host,
      port: ep.port,
      ca,
      token: async () => (await proc.fs.readFile(`${SA_DIR}/token`)).trim(),
      dial: (host, port) =>
        ep.fromHost
          ? new Promise<Socket>((resolve, reject) => {
              const s = netConnect({ host, port }, () => resolve(s));
              s.once('error', reject);
            })
          : proc.connect(host, port),
    };
    const warned = new Map<string, number>();
    const warn = (msg: string) => {
      // One line per failing watch every 30 s, as client-go's reflector backs off (the log stays bounded).
      const last = warned.get(msg.split(':')[0]!) ?? 0;
      if (Date.now() - last < 30_000) return;
      warned.set(msg.split(':')[0]!, Date.now());
      info(`[ERROR] plugin/kubernetes: ${msg}`);
    };
    const changed = () => server.changed();
    const watches = cfg.kubernetes
      ? [
          reflect(api, '/api/v1/services', server.objects.services, changed, warn),
          reflect(api, '/apis/discovery.k8s.io/v1/endpointslices', server.objects.slices, changed, warn),
          reflect(api, '/api/v1/namespaces', server.objects.namespaces, changed, warn),
        ]
      : [];
    let synced = watches.length === 0;
    void Promise.all(watches.map((w) => w.synced)).then(() => (synced = true));

    const listeners: Listener[] = [];
    const stopAll = async () => {
      for (const w of watches) w.stop();
      for (const l of listeners.splice(0)) await proc.unlisten(l);
    };
    let shuttingDown = false;
    try {
      listeners.push(await proc.listen(cfg.port, { udp: (msg, from, send) => void server.handle(msg, 'udp', from.family === 'IPv6' ? 6 : 4).then((out) => out && send(out)) }));
      listeners.push(await proc.listen(cfg.port, tcpDns(server)));
      if (cfg.health)
        listeners.push(
          await proc.listen(cfg.health.port, (req, res) => {
            // In lameduck the server still answers /health with OK, as CoreDNS does until it stops.
            res.writeHead(req.url === '/health' ? 200 : 404, { 'Content-Type': 'text/plain; charset=utf-8' });
            res.end(req.url === '/health' ? 'OK' : '404 page not found\n');
          }),
        );
      if (cfg.ready)
        listeners.push(
          await proc.listen(cfg.ready.port, (req, res) => {
            if (req.url !== '/ready') {
              res.writeHead(404).end('404 page not found\n');
              return;
            }
            const ready = synced && !shuttingDown;
            res.writeHead(ready ? 200 : 503, { 'Content-Type': 'text/plain; charset=utf-8' });
            res.end(ready ? 'OK' : 'kubernetes');
            if (!ready && !shuttingDown) info('[INFO] plugin/ready: Still waiting on: "kubernetes"');
          }),
        );
      if (cfg.prometheus)
        listeners.push(
          await proc.listen(cfg.prometheus.port, (req, res) => {
            if (req.url !== '/metrics') return void res.writeHead(404).end('404 page not found\n');
            void server.registry.metrics().then((body) => {
              res.writeHead(200, { 'Content-Type': server.registry.contentType });
              res.end(body);
            });
          }),
        );
    } catch (e) {
      await stopAll();
      return ok('', 1, `Listen: listen tcp :${cfg.port}: bind: ${(e as Error).message.replace(/^98: /, '')}\n`);
    }

    info(`${cfg.zones.map((z) => `${z}:${cfg.port}`).join(' ')}`);
    info(`[INFO] plugin/reload: Running configuration SHA512 = ${createHash('sha512').update(text).digest('hex')}`);
    info(`CoreDNS-${COREDNS_VERSION}`);
    info('linux/amd64, go1.21.11, a6338e9');
    // The kubernetes plugin waits up to 5 s for its first list before it serves anyway.
    void Promise.race([Promise.all(watches.map((w) => w.synced)), proc.sleep(5000).then(() => 'late')]).then((r) => {
      if (r === 'late' && !synced) info('[WARNING] plugin/kubernetes: starting server with unsynced Kubernetes API');
    });

    const sig = await untilSignal(proc, true);
    shuttingDown = true;
    if (sig === 'TERM') {
      info('[INFO] SIGTERM: Shutting down servers then terminating');
      if (cfg.health?.lameduckSeconds) {
        info(`[INFO] plugin/health: Going into lameduck mode for ${cfg.health.lameduckSeconds}s`);
        await Promise.race([proc.sleep(cfg.health.lameduckSeconds * 1000), proc.killed]);
      }
    }
    await stopAll();
    return ok('', sig === 'TERM' ? 0 : 137);
  });
}

/** A DNS query message (for tools and tests): one question, recursion desired. */
export function dnsQuery(name: string, type: dnsPacket.RecordType, id = 1): Buffer {
  return dnsPacket.encode({ type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name, class: 'IN' }] });
}
