// The security context as a container observes it, through the CRI: a pod
// per case (CreateContainer with a LinuxContainerSecurityContext, then
// ExecSync), asserting what busybox prints, as on a containerd 1.7 node.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerConfig, sandboxConfig, startHarness, type Harness } from '../src/testing/harness.js';

let h: Harness;
let n = 0;

beforeAll(async () => {
  h = await startHarness({ podCidr: '10.244.1.0/24' });
  await h.cri.img.PullImage({ image: { image: 'busybox' } });
  await h.cri.img.PullImage({ image: { image: 'nginx' } });
});
afterAll(async () => {
  await h?.dispose();
  rmSync(PROFILES, { recursive: true, force: true });
});

/** A pod running `sleep 600` in `image` with the container security context `sc` (and the sandbox's `linux`); returns the container id. */
async function pod(sc: Record<string, unknown>, opts: { image?: string; linux?: Record<string, unknown> } = {}): Promise<string> {
  const cfg = sandboxConfig(`sec-${++n}`, h.dir, opts.linux ? { linux: opts.linux } : {});
  const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: cfg });
  const { containerId } = await h.cri.rt.CreateContainer({
    podSandboxId,
    config: containerConfig('app', opts.image ?? 'busybox', { command: ['sleep', '600'], linux: { securityContext: sc } }),
    sandboxConfig: cfg,
  });
  await h.cri.rt.StartContainer({ containerId });
  return containerId;
}

async function exec(containerId: string, script: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const r = await h.cri.rt.ExecSync({ containerId, cmd: ['sh', '-c', script], timeout: 5 });
  return { stdout: r.stdout.toString(), stderr: r.stderr.toString(), exitCode: r.exitCode };
}

const PROFILES = mkdtempSync(join(tmpdir(), 'kubelab-seccomp-'));
const profile = (name: string, syscalls: string[]) => {
  const path = join(PROFILES, name);
  writeFileSync(path, JSON.stringify({ defaultAction: 'SCMP_ACT_ALLOW', syscalls: [{ names: syscalls, action: 'SCMP_ACT_ERRNO' }] }));
  return path;
};
/** critest's localhost profiles. */
const BLOCK_CHMOD = profile('block-chmod.json', ['chmod', 'fchmodat']);
const BLOCK_HOSTNAME = profile('block-host-name.json', ['sethostname']);

const RUNTIME_DEFAULT = { profileType: 'RuntimeDefault' };
const UNCONFINED = { profileType: 'Unconfined' };

describe('what a container observes of its security context', () => {
  it.each<[string, Record<string, unknown>, string, Partial<{ stdout: string; stderr: string; exitCode: number }>, { image?: string; linux?: Record<string, unknown> }?]>([
    ['no context: root', {}, 'id; whoami', { stdout: 'uid=0(root) gid=0(root) groups=0(root)\nroot\n', exitCode: 0 }],
    ['runAsUser without a passwd entry', { runAsUser: { value: 1000 } }, 'id', { stdout: 'uid=1000 gid=0(root) groups=0(root)\n' }],
    [
      'runAsUser, runAsGroup and supplemental groups (fsGroup first)',
      { runAsUser: { value: 1000 }, runAsGroup: { value: 3000 }, supplementalGroups: [2000, 4000] },
      'id',
      { stdout: 'uid=1000 gid=3000 groups=2000,3000,4000\n' },
    ],
    ['id -u, -g, -G', { runAsUser: { value: 1000 }, runAsGroup: { value: 3000 }, supplementalGroups: [2000] }, 'id -u; id -g; id -G', { stdout: '1000\n3000\n2000 3000\n' }],
    ['whoami for a uid without a name', { runAsUser: { value: 1000 } }, 'whoami', { stderr: 'whoami: unknown uid 1000\n', exitCode: 1 }],
    ['nobody by uid: its passwd group', { runAsUser: { value: 65534 } }, 'id; whoami', { stdout: 'uid=65534(nobody) gid=65534(nobody) groups=65534(nobody)\nnobody\n' }],
    ['run_as_username', { runAsUsername: 'nobody' }, 'id -un', { stdout: 'nobody\n' }],
    [
      'coreutils id in a Debian image: the primary group first',
      { runAsUser: { value: 101 }, supplementalGroups: [2000] },
      'id',
      { stdout: 'uid=101(nginx) gid=101 groups=101,2000\n' },
      { image: 'nginx' },
    ],
    ['readOnlyRootFilesystem: touch', { readonlyRootfs: true }, 'touch /x', { stderr: 'touch: /x: Read-only file system\n', exitCode: 1 }],
    ['readOnlyRootFilesystem: an ash redirection', { readonlyRootfs: true }, 'echo hi > /x', { stderr: "sh: can't create /x: Read-only file system\n", exitCode: 1 }],
    ['readOnlyRootFilesystem: /dev/shm and /etc/hosts stay writable', { readonlyRootfs: true }, 'touch /dev/shm/x && echo ok', { stdout: 'ok\n', exitCode: 0 }],
    [
      'default capabilities',
      {},
      'grep -E "^(Cap|NoNewPrivs|Seccomp)" /proc/self/status',
      {
        stdout:
          'CapInh:\t0000000000000000\nCapPrm:\t00000000a80425fb\nCapEff:\t00000000a80425fb\nCapBnd:\t00000000a80425fb\nCapAmb:\t0000000000000000\nNoNewPrivs:\t0\nSeccomp:\t0\nSeccomp_filters:\t0\n',
      },
    ],
    [
      'drop ALL, add NET_BIND_SERVICE; no_new_privs; RuntimeDefault seccomp',
      { capabilities: { addCapabilities: ['NET_BIND_SERVICE'], dropCapabilities: ['ALL'] }, noNewPrivs: true, seccomp: RUNTIME_DEFAULT },
      'grep -E "^(CapEff|CapBnd|NoNewPrivs|Seccomp):" /proc/self/status',
      {
        stdout: 'CapEff:\t0000000000000400\nCapBnd:\t0000000000000400\nNoNewPrivs:\t1\nSeccomp:\t2\n',
      },
    ],
    [
      'add SYS_ADMIN and NET_ADMIN',
      { capabilities: { addCapabilities: ['SYS_ADMIN', 'CAP_NET_ADMIN'] }, seccomp: UNCONFINED },
      'grep CapEff /proc/1/status',
      { stdout: 'CapEff:\t00000000a82435fb\n' },
    ],
    [
      'a non-root user has no effective capabilities',
      { runAsUser: { value: 1000 } },
      'grep -E "^Cap(Eff|Bnd)" /proc/self/status',
      { stdout: 'CapEff:\t0000000000000000\nCapBnd:\t00000000a80425fb\n' },
    ],
    ['privileged: every capability', { privileged: true }, 'grep CapEff /proc/self/status', { stdout: 'CapEff:\t000001ffffffffff\n' }],
    ['chown without CAP_CHOWN', { capabilities: { dropCapabilities: ['CHOWN'] } }, 'chown 1000 /etc/passwd', { stderr: 'chown: /etc/passwd: Operation not permitted\n', exitCode: 1 }],
    ['chown with CAP_CHOWN', {}, 'chown 1000 /etc/passwd && echo ok', { stdout: 'ok\n' }],
    ['hostname without CAP_SYS_ADMIN', {}, 'hostname other', { stderr: 'hostname: sethostname: Operation not permitted\n', exitCode: 1 }],
    ['date -s without CAP_SYS_TIME', {}, 'date -s 2020-01-01', { stderr: "date: can't set date: Operation not permitted\n", exitCode: 1 }],
    ['date still prints the date', {}, 'date +%Y', { stdout: `${new Date().getUTCFullYear()}\n`, exitCode: 0 }],
    ['mknod without CAP_MKNOD', { capabilities: { dropCapabilities: ['MKNOD'] } }, 'mknod /dev/null2 c 1 3', { stderr: 'mknod: /dev/null2: Operation not permitted\n', exitCode: 1 }],
    ['masked paths read as empty', {}, 'wc -c < /proc/kcore; ls /proc/acpi | wc -l', { stdout: '0\n0\n' }],
    ['/proc/sys is read-only', {}, 'echo 1 > /proc/sys/net/core/somaxconn', { stderr: "sh: can't create /proc/sys/net/core/somaxconn: Read-only file system\n", exitCode: 1 }],
    [
      'the pod sysctls under /proc/sys',
      {},
      'cat /proc/sys/net/core/somaxconn /proc/sys/kernel/shm_rmid_forced',
      { stdout: '1024\n1\n' },
      { linux: { sysctls: { 'net.core.somaxconn': '1024', 'kernel.shm_rmid_forced': '1' } } },
    ],
    ['brctl addbr without CAP_NET_ADMIN', {}, 'brctl addbr foobar', { stderr: 'brctl: bridge foobar: Operation not permitted\n', exitCode: 1 }],
    [
      'brctl addbr with CAP_NET_ADMIN',
      { capabilities: { addCapabilities: ['NET_ADMIN'] } },
      'brctl addbr foobar && brctl show',
      { stdout: 'bridge name\tbridge id\t\tSTP enabled\tinterfaces\nfoobar\t\t8000.000000000000\tno\t\t\n', exitCode: 0 },
    ],
    ['brctl addbr in a privileged container', { privileged: true }, 'brctl addbr foobar', { stdout: '', stderr: '', exitCode: 0 }],
    [
      'ping without CAP_NET_RAW',
      { capabilities: { dropCapabilities: ['NET_RAW'] } },
      'ping 127.0.0.1',
      { stdout: 'PING 127.0.0.1 (127.0.0.1): 56 data bytes\n', stderr: 'ping: permission denied (are you root?)\n', exitCode: 1 },
    ],
    [
      'ping with the default capabilities',
      {},
      'ping -c 1 127.0.0.1',
      {
        stdout:
          'PING 127.0.0.1 (127.0.0.1): 56 data bytes\n64 bytes from 127.0.0.1: seq=0 ttl=64 time=0.040 ms\n\n--- 127.0.0.1 ping statistics ---\n1 packets transmitted, 1 packets received, 0% packet loss\nround-trip min/avg/max = 0.040/0.040/0.040 ms\n',
        exitCode: 0,
      },
    ],
    ['a masked executable cannot run (/bin/sh -c)', { maskedPaths: ['/bin/ls'] }, 'ls', { stderr: 'sh: ls: Permission denied\n', exitCode: 126 }],
    ['busybox touch under a read-only path', { readonlyPaths: ['/tmp'] }, 'touch /tmp/test', { stderr: 'touch: /tmp/test: Read-only file system\n', exitCode: 1 }],
    ['a localhost seccomp profile refuses chmod', { seccomp: { profileType: 'Localhost', localhostRef: BLOCK_CHMOD } }, 'chmod 400 /', { stderr: 'chmod: /: Operation not permitted\n', exitCode: 1 }],
    [
      'a localhost seccomp profile refuses sethostname even with CAP_SYS_ADMIN',
      { seccomp: { profileType: 'Localhost', localhostRef: BLOCK_HOSTNAME }, capabilities: { addCapabilities: ['SYS_ADMIN'] } },
      'hostname other',
      { stderr: 'hostname: sethostname: Operation not permitted\n', exitCode: 1 },
    ],
    ['hostname NAME with CAP_SYS_ADMIN prints nothing', { seccomp: UNCONFINED, capabilities: { addCapabilities: ['SYS_ADMIN'] } }, 'hostname other', { stdout: '', stderr: '', exitCode: 0 }],
    ['seccomp_profile_path docker/default (the deprecated field)', { seccompProfilePath: 'docker/default' }, 'grep ecc /proc/self/status', { stdout: 'Seccomp:\t2\nSeccomp_filters:\t1\n' }],
    ['seccomp_profile_path localhost/PATH', { seccompProfilePath: `localhost/${BLOCK_CHMOD}` }, 'chmod 400 /', { stderr: 'chmod: /: Operation not permitted\n', exitCode: 1 }],
  ])('%s', async (_name, sc, script, want, opts) => {
    const id = await pod(sc, opts);
    expect(await exec(id, script)).toMatchObject(want);
  });
});

describe('ContainerStatus', () => {
  it('reports the user the process runs as', async () => {
    const containerId = await pod({ runAsUser: { value: 1000 }, runAsGroup: { value: 3000 }, supplementalGroups: [2000] });
    const { status } = await h.cri.rt.ContainerStatus({ containerId });
    expect(status?.user).toEqual({ linux: { uid: '1000', gid: '3000', supplementalGroups: ['2000', '3000'] } });
  });
});

describe('what CreateContainer refuses', () => {
  it.each([
    ['run_as_group without a user', { runAsGroup: { value: 3000 } }, '2 UNKNOWN: failed to get container spec opts: failed to generate user string: user group "3000" is specified without user'],
    ['a user the image lacks', { runAsUsername: 'ghost' }, '2 UNKNOWN: failed to create containerd container: failed to apply user "ghost": unable to find user ghost: no users found'],
  ])('%s', async (_name, sc, message) => {
    await expect(pod(sc)).rejects.toThrow(message);
  });
});

describe('PID namespaces', () => {
  /** A pod of two busybox containers, `a` (sleep 600) and `b` (sleep 700), with the PID namespace mode `pid`. */
  async function twoContainers(pid: 'POD' | 'CONTAINER'): Promise<string> {
    const cfg = sandboxConfig(`pid-${++n}`, h.dir);
    const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: cfg });
    const ids: string[] = [];
    for (const [name, secs] of [
      ['a', '600'],
      ['b', '700'],
    ] as const) {
      const { containerId } = await h.cri.rt.CreateContainer({
        podSandboxId,
        config: containerConfig(name, 'busybox', { command: ['sleep', secs], linux: { securityContext: { namespaceOptions: { pid } } } }),
        sandboxConfig: cfg,
      });
      await h.cri.rt.StartContainer({ containerId });
      ids.push(containerId);
    }
    return ids[1]!;
  }

  it('shareProcessNamespace: ps shows the pause process and every container', async () => {
    const b = await twoContainers('POD');
    const ps = (await exec(b, 'ps')).stdout.split('\n').map((l) => l.replace(/\s+/g, ' ').trim());
    expect(ps.slice(0, 4)).toEqual(['PID USER TIME COMMAND', '1 root 0:00 /pause', '2 root 0:00 sleep 600', '1002 root 0:00 sleep 700']);
  });

  it("a container's own namespace: its processes only", async () => {
    const b = await twoContainers('CONTAINER');
    expect((await exec(b, 'ps')).stdout.split('\n')[1]!.replace(/\s+/g, ' ').trim()).toBe('1 root 0:00 sleep 700');
  });

  it("hostPID: a container sees the node pids of the pod's other containers (nginx.pid, pidof)", async () => {
    const cfg = sandboxConfig(`pid-${++n}`, h.dir);
    const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: cfg });
    const start = async (name: string, image: string, command?: string[]) => {
      const { containerId } = await h.cri.rt.CreateContainer({
        podSandboxId,
        config: containerConfig(name, image, { ...(command ? { command } : {}), linux: { securityContext: { namespaceOptions: { pid: 'NODE' } } } }),
        sandboxConfig: cfg,
      });
      await h.cri.rt.StartContainer({ containerId });
      return containerId;
    };
    const web = await start('web', 'nginx');
    const pid = (await exec(web, 'while [ ! -f /var/run/nginx.pid ]; do sleep 1; done; cat /var/run/nginx.pid')).stdout.trim();
    expect(Number(pid)).toBeGreaterThan(1);
    const other = await start('other', 'busybox', ['sleep', '600']);
    const pids = (await exec(other, 'pidof nginx')).stdout.trim().split(' ');
    expect(pids).toContain(pid);
    expect(pids).toHaveLength(2);
  });

  it('nginx retitles itself: /proc/1/cmdline shows the master process, ps its worker', async () => {
    const cfg = sandboxConfig(`nginx-${++n}`, h.dir);
    const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: cfg });
    const { containerId } = await h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig('web', 'nginx', {}), sandboxConfig: cfg });
    await h.cri.rt.StartContainer({ containerId });
    const cmdline = (await exec(containerId, 'while ! grep -q "master process" /proc/1/cmdline; do sleep 1; done; cat /proc/1/cmdline; echo; cat /proc/1/comm')).stdout;
    expect(cmdline).toBe('nginx: master process nginx -g daemon off;\0\nnginx\n');
    // Its worker is the next pid, a child of the master.
    expect((await exec(containerId, 'cat /proc/2/cmdline; echo; cat /proc/2/comm')).stdout).toBe('nginx: worker process\0\nnginx\n');
  });

  it('ps names the user the processes run as', async () => {
    const id = await pod({ runAsUser: { value: 65534 } });
    expect((await exec(id, 'ps')).stdout.split('\n')[1]!.replace(/\s+/g, ' ').trim()).toBe('1 nobody 0:00 sleep 600');
  });
});
