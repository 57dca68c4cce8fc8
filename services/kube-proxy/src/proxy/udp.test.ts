// kube-dns' ports: the same number over UDP and TCP are two service ports
// with chains of their own, matched on their protocol (upstream's
// TestClusterIPGeneral covers a UDP port the same way).

import { describe, expect, it } from 'vitest';
import { makeService, makeSlice } from '../testing/fixtures.js';
import { buildSnapshot } from './changetracker.js';
import { renderIptables } from './iptables/renderer.js';
import { toNftScript } from './nftables/model.js';
import { renderNftables } from './nftables/renderer.js';
import { defaultProxyConfig } from './types.js';

const snapshot = () =>
  buildSnapshot(
    [
      makeService('kube-system', 'kube-dns', '10.96.0.10', [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
      ]),
    ],
    [
      makeSlice(
        'kube-system',
        'kube-dns',
        [
          { name: 'dns', port: 53, protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, protocol: 'TCP' },
        ],
        [{ ip: '10.244.0.2', ready: true }],
      ),
    ],
    'node-1',
  );

describe('UDP service ports', () => {
  it('iptables: a KUBE-SERVICES jump and a DNAT per protocol', () => {
    const rules = renderIptables(snapshot(), defaultProxyConfig()).restore.split('\n');
    const services = rules.filter((l) => l.startsWith('-A KUBE-SERVICES') && l.includes('-d 10.96.0.10 '));
    expect(services).toHaveLength(2);
    expect(services.find((l) => l.includes('kube-system/kube-dns:dns cluster IP'))).toMatch(/ -m udp -p udp -d 10\.96\.0\.10 --dport 53 -j KUBE-SVC-/);
    expect(services.find((l) => l.includes('kube-system/kube-dns:dns-tcp cluster IP'))).toMatch(/ -m tcp -p tcp -d 10\.96\.0\.10 --dport 53 -j KUBE-SVC-/);
    const dnat = rules.filter((l) => l.includes('-j DNAT'));
    expect(dnat.some((l) => / -p udp .*--to-destination 10\.244\.0\.2:53$/.test(l))).toBe(true);
    expect(dnat.some((l) => / -p tcp .*--to-destination 10\.244\.0\.2:53$/.test(l))).toBe(true);
  });

  it('nftables: service-ips elements and DNATs per protocol', () => {
    const script = toNftScript(renderNftables(snapshot(), defaultProxyConfig()));
    expect(script).toMatch(/add element ip kube-proxy service-ips \{ 10\.96\.0\.10 \. udp \. 53 : goto service-\S+-kube-system\/kube-dns\/udp\/dns \}/);
    expect(script).toMatch(/add element ip kube-proxy service-ips \{ 10\.96\.0\.10 \. tcp \. 53 : goto service-\S+-kube-system\/kube-dns\/tcp\/dns-tcp \}/);
    expect(script).toMatch(/meta l4proto udp dnat to 10\.244\.0\.2:53/);
    expect(script).toMatch(/ip daddr 10\.96\.0\.10 udp dport 53 ip saddr != 10\.244\.0\.0\/16 jump mark-for-masquerade/);
  });
});
