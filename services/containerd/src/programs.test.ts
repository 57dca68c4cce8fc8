import { describe, expect, it } from 'vitest';
import { standInWhere, stressBytes } from './programs.js';

describe('stress (polinux/stress)', () => {
  it('reads sizes with stress suffixes', () => {
    expect([stressBytes('150M', 0), stressBytes('1g', 0), stressBytes('512k', 0), stressBytes('10', 0), stressBytes('x', 7)]).toEqual([150 * 1024 * 1024, 1024 ** 3, 512 * 1024, 10, 7]);
  });
});

describe('a stand-in names where the real process runs', () => {
  it.each([
    [{ KUBELAB_COMPONENT_SERVICE: 'scheduler' }, 'kube-scheduler runs in a container of its own: the compose service "scheduler" (docker compose logs scheduler)'],
    [{ KUBELAB_COMPONENT_PROCESS: 'scheduler' }, 'kube-scheduler runs as a process of its own: "scheduler" of kubelab up (its log: <state-dir>/logs/scheduler.log)'],
    [{ KUBELAB_COMPONENT_UNIT: 'kube-proxy' }, 'kube-scheduler runs as a service of this node: kube-proxy.service (systemctl status kube-proxy, journalctl -u kube-proxy)'],
    [{}, "kube-scheduler runs in a container of its own: this node's own kube-scheduler container (docker compose ps)"],
  ])('%j', (env, text) => {
    expect(standInWhere('kube-scheduler', env)).toBe(text);
  });
});
