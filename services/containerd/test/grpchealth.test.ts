import { connect } from 'node:http2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeSandboxNetwork, sandboxPortKey } from '@kubelab/proto';
import { waitFor } from '@kubelab/testing';
import { startHarness, type Harness } from '../src/testing/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ podCidr: '10.244.1.0/24' });
});
afterEach(async () => {
  await h?.dispose();
});

/** One Health/Check over h2c, as a gRPC client sends it: status name, or `code: message` for an error. */
function check(addr: string, service: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const session = connect(`http://${addr}`);
    session.on('error', reject);
    const req = session.request({ ':method': 'POST', ':path': '/grpc.health.v1.Health/Check', 'content-type': 'application/grpc', te: 'trailers' });
    const svc = Buffer.from(service);
    const msg = svc.length ? Buffer.concat([Buffer.from([0x0a, svc.length]), svc]) : Buffer.alloc(0);
    const head = Buffer.alloc(5);
    head.writeUInt32BE(msg.length, 1);
    let headers: Record<string, unknown> = {};
    const chunks: Buffer[] = [];
    req.on('response', (hd) => (headers = hd));
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('trailers', (t) => (headers = { ...headers, ...t }));
    req.on('end', () => {
      session.close();
      const code = String(headers['grpc-status']);
      if (code !== '0') return resolve(`${code}: ${decodeURIComponent(String(headers['grpc-message'] ?? ''))}`);
      const body = Buffer.concat(chunks).subarray(5);
      resolve(['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'][body.length ? body[1]! : 0]!);
    });
    req.end(Buffer.concat([head, msg]));
  });
}

describe('grpc-health teaching image', () => {
  it('serves grpc.health.v1.Health on the mapped port; /tmp/grpc-status flips the answer; unknown services are NotFound', async () => {
    const { podSandboxId, containerId } = await h.runPod('grpc', 'kubelab/grpc-health', { args: ['8080', 'db'] });
    const addr = await waitFor('the mapped port of 8080/TCP', async () => {
      const st = await h.cri.rt.PodSandboxStatus({ podSandboxId, verbose: true });
      return decodeSandboxNetwork(st.info)?.ports[sandboxPortKey(8080)];
    });
    expect(await check(addr, '')).toBe('SERVING');
    expect(await check(addr, 'db')).toBe('SERVING');
    expect(await check(addr, 'cache')).toBe('5: unknown service');
    await h.cri.rt.ExecSync({ containerId, cmd: ['sh', '-c', 'echo NOT_SERVING > /tmp/grpc-status'], timeout: 5 });
    expect(await check(addr, '')).toBe('NOT_SERVING');
  });
});

describe('stress (polinux/stress)', () => {
  it('holds --vm × --vm-bytes of memory, as ContainerStats shows', async () => {
    const { containerId } = await h.runPod('stress', 'polinux/stress', { command: ['stress'], args: ['--vm', '1', '--vm-bytes', '150M', '--vm-hang', '1'] });
    const st = await waitFor('stats with the allocation', async () => {
      const s = (await h.cri.rt.ContainerStats({ containerId })).stats!;
      return Number(s.memory!.workingSetBytes!.value) > 150 * 1024 * 1024 ? s : undefined;
    });
    expect(Number(st.memory!.workingSetBytes!.value)).toBe(151 * 1024 * 1024);
  });

  it('is OOMKilled at once when the allocation exceeds the memory limit', async () => {
    const { containerId } = await h.runPod('oom', 'polinux/stress', {
      command: ['stress'],
      args: ['--vm', '1', '--vm-bytes', '250M', '--vm-hang', '1'],
      linux: { resources: { memoryLimitInBytes: String(100 * 1024 * 1024) } },
    });
    const s = await waitFor('the OOM kill', async () => {
      const x = (await h.cri.rt.ContainerStatus({ containerId })).status!;
      return x.state === 'CONTAINER_EXITED' ? x : undefined;
    });
    expect(s).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
  });
});
