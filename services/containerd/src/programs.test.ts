import { describe, expect, it } from 'vitest';
import { CATALOG, imageId, shortRepository } from '@kubelab/images';
import { ImageStore } from './images.js';
import { isSimulatedProgram, standInWhere, stressBytes } from './programs.js';

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

describe("the catalogue's images run what they name", () => {
  it.each(CATALOG.map((d) => [`${d.repository}:${d.tags[0]}`, d] as const))('%s', (_ref, def) => {
    for (const p of def.programs) expect(isSimulatedProgram(p), `program ${p}`).toBe(true);
    const argv0 = def.entrypoint[0] ?? def.cmd[0];
    // The control-plane images have neither, as upstream's: kubeadm's manifests give the command.
    if (argv0 === undefined) return;
    const name = argv0.slice(argv0.lastIndexOf('/') + 1);
    expect(['sh', 'bash', ...def.programs], `${argv0} is shipped`).toContain(name);
  });
});

describe('every image pulls by each of its names', () => {
  const store = new ImageStore({ pullBytesPerSecond: 0 });
  it.each(CATALOG.filter((d) => !d.auth).flatMap((d) => d.tags.map((t) => [shortRepository(d.repository), t, d] as const)))('%s:%s', async (short, tag, def) => {
    const byShort = await store.pull(`${short}:${tag}`);
    const byFull = await store.pull(`${def.repository}:${tag}`);
    expect(byShort.id).toBe(imageId(def));
    expect(byFull.id).toBe(byShort.id);
  });
});
