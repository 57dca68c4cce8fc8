import { describe, expect, it } from 'vitest';
import { haComponents, haPorts, haStaticPodView, isApiReady, isStoreReady, withFlags } from './ha.js';
import { components, controlPlanePorts, type ComponentSpec, type Layout } from './topology.js';

const layout: Layout = { stateDir: '/state', nodes: 1, portOffset: 3000, ports: controlPlanePorts(3000) };
const specs = haComponents(layout, components(layout));
const byName = (name: string): ComponentSpec => {
  const s = specs.find((x) => x.name === name);
  if (!s) throw new Error(`no ${name}`);
  return s;
};
const flag = (spec: ComponentSpec, name: string) => spec.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

describe('haPorts', () => {
  const hp = haPorts(layout);
  it('gives the NATS members the single server ports and the next two', () =>
    expect(hp.nats.map((m) => [m.client, m.monitor, m.route])).toEqual([
      [7222, 11222, 9222],
      [7223, 11223, 9223],
      [7224, 11224, 9224],
    ]));
  it('puts the apiservers 10 apart behind the balancer', () =>
    expect(hp.apiservers.map((b) => [b.https, b.grpc])).toEqual([
      [9453, 9454],
      [9463, 9464],
      [9473, 9474],
    ]));
  it('keeps the first scheduler and controller-manager on their upstream ports', () =>
    expect([hp.schedulers, hp.controllerManagers]).toEqual([
      [13259, 13261, 13262],
      [13257, 13263, 13264],
    ]));
});

describe('haComponents', () => {
  it('starts the NATS members, then the apiservers, then the balancer, then three schedulers and controller-managers', () =>
    expect(specs.slice(0, 13).map((s) => s.name)).toEqual([
      'nats-1',
      'nats-2',
      'nats-3',
      'apiserver-1',
      'apiserver-2',
      'apiserver-3',
      'haproxy',
      'scheduler-1',
      'scheduler-2',
      'scheduler-3',
      'controller-manager-1',
      'controller-manager-2',
      'controller-manager-3',
    ]));

  const cases: { name: string; spec: string; flag: string; want: string | undefined }[] = [
    { name: 'every apiserver names all three NATS servers', spec: 'apiserver-2', flag: 'nats-url', want: 'nats://127.0.0.1:7222,nats://127.0.0.1:7223,nats://127.0.0.1:7224' },
    { name: 'an apiserver serves on its own port', spec: 'apiserver-2', flag: 'secure-port', want: '9463' },
    { name: 'an apiserver has its own gRPC port', spec: 'apiserver-3', flag: 'grpc-port', want: '9474' },
    { name: 'the first apiserver publishes the kubernetes endpoint', spec: 'apiserver-1', flag: 'endpoint-reconciler-type', want: undefined },
    { name: 'the others leave it to the first (one address, three ports)', spec: 'apiserver-2', flag: 'endpoint-reconciler-type', want: 'none' },
    { name: 'an apiserver has its own serving certificate', spec: 'apiserver-3', flag: 'tls-cert-file', want: '/state/pki/apiserver-3.crt' },
    { name: 'a scheduler talks to its own apiserver (kubeadm: the local API endpoint)', spec: 'scheduler-2', flag: 'apiserver-grpc-address', want: '127.0.0.1:9464' },
    { name: 'a scheduler elects a leader', spec: 'scheduler-3', flag: 'leader-elect', want: 'true' },
    { name: 'a controller-manager serves on its own port', spec: 'controller-manager-3', flag: 'secure-port', want: '13264' },
    { name: 'a controller-manager elects a leader', spec: 'controller-manager-1', flag: 'leader-elect', want: 'true' },
    { name: 'the kubelets go through the balancer', spec: 'kubelet-1', flag: 'apiserver-grpc-address', want: '127.0.0.1:9444' },
    { name: 'the dashboard goes through the balancer', spec: 'dashboard', flag: 'apiserver-grpc-address', want: '127.0.0.1:9444' },
  ];
  for (const c of cases) it(c.name, () => expect(flag(byName(c.spec), c.flag)).toBe(c.want));

  it('checks the first NATS members without a meta leader, the last with one', () =>
    expect(['nats-1', 'nats-3'].map((n) => byName(n).health)).toEqual(['http://127.0.0.1:11222/healthz?js-enabled-only=true', 'http://127.0.0.1:11224/healthz']));
  it('checks the balancer through its HTTPS frontend', () =>
    expect(byName('haproxy')).toMatchObject({ service: 'haproxy', args: ['-f', '/state/haproxy.cfg'], health: 'https://127.0.0.1:9443/readyz' }));
  it('runs the store phase after the last member and the API phase after the balancer', () => {
    expect(specs.filter((s) => isStoreReady(s, true)).map((s) => s.name)).toEqual(['nats-3']);
    expect(specs.filter((s) => isApiReady(s, true)).map((s) => s.name)).toEqual(['haproxy']);
  });
  it('shows instance 1 as the static pods', () =>
    expect(
      haStaticPodView(specs)
        .slice(0, 4)
        .map((s) => s.name),
    ).toEqual(['nats', 'nats-2', 'nats-3', 'apiserver']));
});

describe('withFlags', () => {
  it('drops the old value of each flag given and appends the new ones', () => expect(withFlags(['--a=1', '--b=2', '--c'], { b: '3', c: 'x', d: '4' })).toEqual(['--a=1', '--b=3', '--c=x', '--d=4']));
});
