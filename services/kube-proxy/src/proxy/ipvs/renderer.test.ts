import { describe, expect, it } from 'vitest';
import { scenario } from '../../testing/fixtures.js';
import { buildSnapshot } from '../changetracker.js';
import { defaultProxyConfig } from '../types.js';
import { renderIpvs, toIpvsadmList, toIpvsScript } from './renderer.js';

const rs = (scheduler = 'rr') => {
  const s = scenario();
  return renderIpvs(buildSnapshot(s.services, s.slices, 'node-1'), defaultProxyConfig({ nodeIPs: ['192.168.50.2'], ipvsScheduler: scheduler }));
};

describe('renderIpvs', () => {
  it('lists one virtual server per IP:port with the endpoints as real servers (ipvsadm -Ln)', () => {
    expect(toIpvsadmList(rs())).toBe(
      [
        'IP Virtual Server version 1.2.1 (size=4096)',
        'Prot LocalAddress:Port Scheduler Flags',
        '  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
        'TCP  10.96.0.10:80 rr',
        '  -> 10.244.1.2:8080              Masq    1      0          0',
        '  -> 10.244.1.4:8080              Masq    1      0          0',
        '  -> 10.244.2.3:8080              Masq    1      0          0',
        'TCP  10.96.0.11:443 rr',
        '  -> 10.244.1.5:8443              Masq    1      0          0',
        'TCP  10.96.0.12:80 rr',
        'TCP  10.96.0.13:80 rr',
        '  -> 10.244.2.6:8080              Masq    1      0          0',
        'TCP  10.96.0.14:80 rr persistent 10800',
        '  -> 10.244.1.7:8080              Masq    1      0          0',
        '  -> 10.244.2.8:8080              Masq    1      0          0',
        'TCP  10.96.0.15:80 rr',
        '  -> 10.244.1.9:8080              Masq    0      0          0',
        'TCP  192.168.50.2:30080 rr',
        '  -> 10.244.2.6:8080              Masq    1      0          0',
        '',
      ].join('\n'),
    );
  });

  it('binds every service IP to kube-ipvs0 and programs with ipvsadm, using --ipvs-scheduler', () => {
    const script = toIpvsScript(rs('lc')).split('\n');
    expect(script.slice(0, 3)).toEqual(['ip link add kube-ipvs0 type dummy', 'ip addr add 10.96.0.10/32 dev kube-ipvs0', 'ip addr add 10.96.0.11/32 dev kube-ipvs0']);
    expect(script).toContain('ipvsadm -A -t 10.96.0.14:80 -s lc -p 10800');
    expect(script).toContain('ipvsadm -a -t 10.96.0.10:80 -r 10.244.1.2:8080 -m -w 1');
    expect(rs().ruleCount).toBe(7 + 9);
  });
});
