import { describe, expect, it } from 'vitest';
import { composeHaproxyConfig, parseKubeadmHaArgs } from './kubeadm-ha.js';

describe('kubelab kubeadm ha', () => {
  it('takes the apiservers, the config path and the NATS cluster', () =>
    expect(parseKubeadmHaArgs(['/etc/kubernetes', '--apiservers=apiserver,apiserver-2', '--haproxy-config', '/x/haproxy.cfg', '--nats-url=nats://nats:4222,nats://nats-2:4222'])).toEqual({
      dir: '/etc/kubernetes',
      apiservers: ['apiserver', 'apiserver-2'],
      haproxyConfig: '/x/haproxy.cfg',
      natsUrl: 'nats://nats:4222,nats://nats-2:4222',
      timeoutMs: 300_000,
    }));

  it.each([
    [['--apiservers=a'], 'usage: kubelab kubeadm ha DIR'],
    [['/e'], '--apiservers: name at least one apiserver'],
    [['/e', '--apiservers=Bad_Name'], '--apiservers: "Bad_Name" is not a host name'],
    [['/e', '--apiservers=a', '--nats-url=http://nats'], '--nats-url "http://nats": want nats://host:port'],
  ])('refuses %j', (argv, message) => expect(() => parseKubeadmHaArgs(argv)).toThrow(message));

  it("balances every apiserver's HTTPS and gRPC ports on every address, checked on /readyz", () => {
    const lines = composeHaproxyConfig(['apiserver', 'apiserver-2', 'apiserver-3']).split('\n');
    for (const line of [
      '    bind 0.0.0.0:6443',
      '    bind 0.0.0.0:6444',
      '    bind 0.0.0.0:8404',
      '    http-check send meth GET uri /readyz',
      '    server apiserver-2 apiserver-2:6443 check port 6443 check-ssl verify none inter 1000 fall 2 rise 2',
      '    server apiserver-3 apiserver-3:6444 check port 6443 check-ssl verify none inter 1000 fall 2 rise 2',
    ])
      expect(lines).toContain(line);
  });
});
