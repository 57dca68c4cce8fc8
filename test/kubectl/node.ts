// Shared by the tests that run a real kubelet and runtime beside the cluster
// (exec, attach): node-1 itself, a quiet logger and a pseudo-terminal driver for `-it`.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startContainerd } from '@kubelab/containerd';
import { startKubelet } from '@kubelab/kubelet';
import type { Cluster } from './harness.js';

/**
 * Runs a command on a pseudo terminal (python's pty module): types each
 * input once the output ends with a shell prompt and has been still for
 * 150 ms, then prints everything the terminal showed and the exit code as JSON.
 */
export const PTY_DRIVER = `
import json, os, pty, select, sys, time
inputs = json.loads(sys.argv[1])  # [text to type, output suffix to wait for first]
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(sys.argv[2], sys.argv[2:], os.environ)
out = b''
def read_until(pred, limit=15):
    global out
    end = time.time() + limit
    while time.time() < end and not pred():
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                out += os.read(fd, 4096)
            except OSError:
                return
def settle(quiet=0.15):
    # what it waits for may be followed by more (a prompt drawn twice on attach): type once the screen is still
    global out
    while True:
        r, _, _ = select.select([fd], [], [], quiet)
        if not r:
            return
        try:
            out += os.read(fd, 4096)
        except OSError:
            return
mark = 0
for text, wait in inputs:
    read_until(lambda: out[mark:].endswith(wait.encode()))
    settle()
    mark = len(out)
    os.write(fd, text.encode())
read_until(lambda: False, 0.2) if not inputs else None
while True:
    r, _, _ = select.select([fd], [], [], 15)
    if not r:
        break
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
_, st = os.waitpid(pid, 0)
print(json.dumps({'screen': out.decode(errors='replace'), 'code': os.waitstatus_to_exitcode(st)}))
`;
type Logger = NonNullable<Parameters<typeof startKubelet>[0]['logger']>;
/** Errors to stderr, the rest dropped. */
export const quiet = (component: string): Logger => {
  const l: Logger = { v: () => ({ info() {} }), debug() {}, info() {}, warn() {}, error: (msg, fields) => console.error(`${component}:`, msg, fields ?? ''), with: () => l };
  return l;
};

/** node-1: the mock containerd and a kubelet registered with the test cluster's apiserver, container time 10x faster. */
export async function startNode(cluster: Pick<Cluster, 'api' | 'pki'>, name: string): Promise<{ dir: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), `kubelab-${name}-`));
  const containerd = await startContainerd({
    nodeName: 'node-1',
    address: join(dir, 'containerd.sock'),
    root: join(dir, 'containerd'),
    healthPort: 0,
    pullBytesPerSecond: 0,
    podCidr: '10.244.1.0/24',
    timeScale: 10,
    logger: quiet('containerd'),
  });
  const kubelet = await startKubelet({
    apiserver: `127.0.0.1:${cluster.api.grpcPort}`,
    apiserverTls: await cluster.pki.clientTls({ commonName: 'system:node:node-1', organizations: ['system:nodes'] }),
    nodeName: 'node-1',
    nodeIP: '127.0.0.1',
    containerRuntimeEndpoint: `unix://${containerd.socketPath}`,
    address: '127.0.0.1',
    port: 0,
    healthzPort: 0,
    rootDir: join(dir, 'kubelet'),
    podLogsDir: join(dir, 'pods'),
    timeScale: 10,
    // kubeadm's kubelet: client certificates from the cluster CA, no anonymous requests, a SubjectAccessReview per request.
    clientCaPem: cluster.pki.pki.caPem,
    logger: quiet('kubelet'),
  });
  return {
    dir,
    stop: async () => {
      await kubelet.stop();
      await containerd.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
