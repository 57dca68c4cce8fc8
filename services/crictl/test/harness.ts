// Integration harness: the mock containerd (its own test harness) with its
// socket at <node root>/run/containerd/containerd.sock and /etc/crictl.yaml
// under the same root, and the built crictl bin run against it as a node
// shell would run it (KUBELAB_NODE_ROOT).

import { execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@kubelab/component-base';
import type { CriCallRecord } from '@kubelab/proto';
import { startHarness, type Harness } from '@kubelab/containerd/testing';

export const CRICTL_BIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

export interface NodeHarness {
  h: Harness;
  root: string;
  /** Every CRI call the runtime recorded (its record sink without NATS: the debug log), oldest first. */
  records: CriCallRecord[];
  crictl(args: string[], opts?: { env?: Record<string, string>; input?: string }): Promise<{ stdout: string; stderr: string; code: number }>;
  dispose(): Promise<void>;
}

export async function startNode(): Promise<NodeHarness> {
  // The runtime's dir is made by the harness; the node root lives inside it.
  const records: CriCallRecord[] = [];
  const logger = createLogger({
    component: 'containerd',
    level: 'debug',
    format: 'json',
    write: (line) => {
      const entry = JSON.parse(line) as { msg?: string } & CriCallRecord;
      if (entry.msg === 'cri call') records.push(entry);
    },
  });
  const h = await startHarness({ podCidr: '10.244.1.0/24', logger });
  const root = join(h.dir, 'node-root');
  mkdirSync(join(root, 'run/containerd'), { recursive: true });
  mkdirSync(join(root, 'etc'), { recursive: true });
  await h.restart({ address: join(root, 'run/containerd/containerd.sock') });
  writeFileSync(join(root, 'etc/crictl.yaml'), 'runtime-endpoint: unix:///run/containerd/containerd.sock\nimage-endpoint: unix:///run/containerd/containerd.sock\ntimeout: 10\n');
  return {
    h,
    root,
    records,
    crictl: (args, opts = {}) =>
      new Promise((resolve) => {
        const env = { PATH: process.env.PATH ?? '', KUBELAB_NODE_ROOT: root, ...opts.env };
        if (opts.input !== undefined) {
          const child = spawn(process.execPath, [CRICTL_BIN, ...args], { env });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
          child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
          child.on('close', (code) => resolve({ stdout, stderr, code: code ?? -1 }));
          child.stdin.end(opts.input);
          return;
        }
        execFile(process.execPath, [CRICTL_BIN, ...args], { env, timeout: 30_000 }, (err, stdout, stderr) =>
          resolve({ stdout, stderr, code: err ? (typeof err.code === 'number' ? err.code : -1) : 0 }),
        );
      }),
    dispose: () => h.dispose(),
  };
}
