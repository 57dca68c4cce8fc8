// DNS queries per second against one CoreDNS server (the coredns program's
// plugin chain, programs/dns/server.ts) over real UDP on 127.0.0.1, with
// kubeadm's Corefile and 1,000 Services (half headless, 3 endpoints each).
// Two runs: the cache on (as kubeadm configures it: most answers are cache
// hits) and off (every answer computed by the kubernetes plugin). Prints JSON lines.
import { createSocket } from 'node:dgram';
import * as dnsPacket from 'dns-packet';
import { listenPort } from '../dist/network.js';
import { parseCorefile } from '../dist/programs/dns/corefile.js';
import { DnsServer } from '../dist/programs/dns/server.js';
import { KUBEADM_COREFILE } from '../dist/testing/corefile.js';

const SERVICES = Number(process.env.BENCH_DNS_SERVICES ?? 1000);
const QUERIES = Number(process.env.BENCH_DNS_QUERIES ?? 50_000);
const IN_FLIGHT = 64;

function server(cache) {
  const cfg = parseCorefile(cache ? KUBEADM_COREFILE : KUBEADM_COREFILE.replace('cache 30\n', ''));
  const s = new DnsServer(cfg, () => []);
  for (let i = 0; i < SERVICES; i++) {
    const headless = i % 2 === 1;
    const name = `svc-${i}`;
    s.objects.services.set(`default/${name}`, {
      metadata: { namespace: 'default', name },
      spec: { clusterIP: headless ? 'None' : `10.96.${i >> 8}.${i & 255}`, ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
    });
    if (headless)
      s.objects.slices.set(`default/${name}-x`, {
        metadata: { namespace: 'default', name: `${name}-x`, labels: { 'kubernetes.io/service-name': name } },
        endpoints: [0, 1, 2].map((e) => ({ addresses: [`10.244.${e}.${i & 255}`], conditions: { ready: true } })),
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      });
  }
  s.objects.namespaces.set('/default', { metadata: { name: 'default' } });
  s.changed();
  return s;
}

async function run(cache) {
  const s = server(cache);
  const l = await listenPort('loopback', '127.0.0.1', 53, { udp: (msg, from, reply) => void s.handle(msg, 'udp', 4).then((out) => out && reply(out)) });
  const sock = createSocket('udp4');
  await new Promise((r) => sock.bind(0, '127.0.0.1', r));
  // A query mix as a pod's resolver sends it: Service A records, a search-path miss, headless A.
  const names = [];
  for (let i = 0; i < 200; i++) names.push(`svc-${(i * 7) % SERVICES}.default.svc.cluster.local`, `svc-${i}.default.svc.cluster.local.default.svc.cluster.local`);
  let sent = 0;
  let answered = 0;
  let nx = 0;
  const t0 = process.hrtime.bigint();
  await new Promise((resolve) => {
    const send = () => {
      const id = sent & 0xffff;
      sock.send(dnsPacket.encode({ type: 'query', id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name: names[sent % names.length] }] }), l.hostPort, l.hostIp);
      sent++;
    };
    sock.on('message', (m) => {
      answered++;
      if ((m.readUInt16BE(2) & 0xf) === 3) nx++;
      if (answered >= QUERIES) resolve();
      else if (sent < QUERIES) send();
    });
    for (let i = 0; i < IN_FLIGHT; i++) send();
    // A datagram lost on a loaded machine must not stall the window: refill it after a quiet half second.
    let seen = -1;
    const watchdog = setInterval(() => {
      if (answered >= QUERIES) return clearInterval(watchdog);
      if (answered === seen) for (let i = 0; i < IN_FLIGHT; i++) send();
      seen = answered;
    }, 500);
  });
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  sock.close();
  await l.close();
  console.log(
    JSON.stringify({
      bench: 'coredns queries over UDP',
      cache,
      services: SERVICES,
      queries: QUERIES,
      inFlight: IN_FLIGHT,
      queriesPerSecond: Math.round(QUERIES / secs),
      nxdomainShare: Math.round((nx / QUERIES) * 100) / 100,
    }),
  );
}

await run(true);
await run(false);
