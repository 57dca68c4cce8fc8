// docker/host-ports.mjs's decisions: which LoadBalancer ports get a host
// port on 127.0.0.1 in compose, and that an assignment stays put while its
// Service lives (what `docker compose logs host-ports` tells the user once).

import { describe, expect, it } from 'vitest';
import { assignHostPorts, loadBalancerPorts, portRange } from '../../docker/host-ports.mjs';

const lb = (name: string, ports: { port: number; nodePort?: number; protocol?: string }[], ingress = ['10.250.0.1']) => ({
  metadata: { namespace: 'default', name },
  spec: { type: 'LoadBalancer', ports },
  status: { loadBalancer: { ingress: ingress.map((ip) => ({ ip })) } },
});

describe('host-ports', () => {
  it('parses a published range', () => {
    expect(portRange('30000-30003')).toEqual([30000, 30001, 30002, 30003]);
    expect(portRange('32800')).toEqual([32800]);
    expect(() => portRange('30009-30000')).toThrow('invalid port range "30009-30000"');
  });

  it('forwards TCP ports of LoadBalancers that have an address and a node port', () => {
    const wanted = loadBalancerPorts([
      lb('web', [
        { port: 80, nodePort: 31080 },
        { port: 53, nodePort: 31053, protocol: 'UDP' },
      ]),
      lb('pending', [{ port: 80, nodePort: 31081 }], []),
      lb('no-node-ports', [{ port: 80 }]),
      { metadata: { namespace: 'default', name: 'np' }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] } },
    ]);
    expect([...wanted]).toEqual([['default/web:80', { nodePort: 31080, ingress: '10.250.0.1', port: 80 }]]);
  });

  it('keeps assignments, frees those of gone Services and fills the lowest free port', () => {
    const pool = portRange('32800-32802');
    const w = (...keys: string[]) => new Map(keys.map((k) => [k, {}]));
    const first = assignHostPorts(new Map(), w('default/b:80', 'default/a:80'), pool);
    expect([...first]).toEqual([
      ['default/a:80', 32800],
      ['default/b:80', 32801],
    ]);
    const second = assignHostPorts(first, w('default/b:80', 'default/c:80', 'default/d:80', 'default/e:80'), pool);
    expect([...second]).toEqual([
      ['default/b:80', 32801],
      ['default/c:80', 32800],
      ['default/d:80', 32802],
    ]);
  });
});
