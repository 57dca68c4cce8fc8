import { connect as netConnect } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { containerConfig, sandboxConfig, startHarness, type Harness } from '../src/testing/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ podCidr: '10.244.1.0/24' });
});
afterEach(async () => {
  await h.dispose();
});

const missing = 'f'.repeat(64);

describe('unknown ids', () => {
  it.each([
    ['ContainerStatus', () => h.cri.rt.ContainerStatus({ containerId: missing }), `an error occurred when try to find container "${missing}": not found`],
    ['StartContainer', () => h.cri.rt.StartContainer({ containerId: missing }), `an error occurred when try to find container "${missing}": not found`],
    ['ExecSync', () => h.cri.rt.ExecSync({ containerId: missing, cmd: ['true'], timeout: 1 }), `an error occurred when try to find container "${missing}": not found`],
    ['ContainerStats', () => h.cri.rt.ContainerStats({ containerId: missing }), `an error occurred when try to find container "${missing}": not found`],
    ['PodSandboxStatus', () => h.cri.rt.PodSandboxStatus({ podSandboxId: missing }), `an error occurred when try to find sandbox "${missing}": not found`],
    ['CreateContainer', () => h.cri.rt.CreateContainer({ podSandboxId: missing, config: containerConfig('a', 'busybox') }), `an error occurred when try to find sandbox "${missing}": not found`],
  ])('%s answers NOT_FOUND', async (_name, call, details) => {
    await expect(call()).rejects.toMatchObject({ code: 5, details });
  });

  it('Stop/Remove of unknown ids succeed (idempotent)', async () => {
    await h.cri.rt.StopContainer({ containerId: missing, timeout: 1 });
    await h.cri.rt.RemoveContainer({ containerId: missing });
    await h.cri.rt.StopPodSandbox({ podSandboxId: missing });
    await h.cri.rt.RemovePodSandbox({ podSandboxId: missing });
    await h.cri.img.RemoveImage({ image: { image: 'busybox:1.36' } });
  });
});

describe('invalid configs name the field', () => {
  it.each([
    ['no config', {}, 'config: sandbox config must not be nil'],
    ['no metadata', { config: { hostname: 'x' } }, 'config.metadata: sandbox config must include metadata'],
    ['no name', { config: { metadata: { namespace: 'default', uid: 'u' } } }, 'config.metadata.name: must not be empty'],
    ['no uid', { config: { metadata: { name: 'p', namespace: 'default' } } }, 'config.metadata.uid: must not be empty'],
    ['bad handler', { config: sandboxConfig('p', '/tmp'), runtimeHandler: 'kata' }, 'runtime_handler: no runtime for "kata" is configured'],
  ])('RunPodSandbox: %s', async (_n, req, details) => {
    await expect(h.cri.rt.RunPodSandbox(req)).rejects.toMatchObject({ code: 3, details });
  });

  it('CreateContainer fields', async () => {
    const { podSandboxId } = await h.cri.rt.RunPodSandbox({ config: sandboxConfig('p', h.dir) });
    await expect(h.cri.rt.CreateContainer({ podSandboxId, config: { metadata: { name: 'a' } } })).rejects.toMatchObject({ code: 3, details: 'config.image.image: must not be empty' });
    await expect(h.cri.rt.CreateContainer({ podSandboxId, config: { image: { image: 'busybox' } } })).rejects.toMatchObject({
      code: 3,
      details: 'config.metadata: container config must include metadata',
    });
    await expect(h.cri.rt.CreateContainer({ podSandboxId: '', config: containerConfig('a', 'busybox') })).rejects.toMatchObject({ code: 3, details: 'pod_sandbox_id: must not be empty' });
    await expect(h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig('a', 'busybox', { linux: { resources: { memoryLimitInBytes: '-1' } } }) })).rejects.toMatchObject({
      code: 3,
      details: 'config.linux.resources.memory_limit_in_bytes: must not be negative, got -1',
    });
    await expect(h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig('a', 'busybox', { logPath: '../../etc/x' }) })).rejects.toMatchObject({ code: 3 });
    await expect(h.cri.rt.CreateContainer({ podSandboxId, config: containerConfig('a', 'busybox') })).rejects.toMatchObject({
      code: 5,
      details: 'failed to create containerd container: failed to get image "busybox": not found',
    });
    await expect(h.cri.rt.ContainerStatus({ containerId: '' })).rejects.toMatchObject({ code: 3, details: 'container_id: must not be empty' });
    await expect(h.cri.rt.UpdateRuntimeConfig({ runtimeConfig: { networkConfig: { podCidr: '10.244.1.0/33' } } })).rejects.toMatchObject({
      code: 3,
      details: 'runtime_config.network_config.pod_cidr: invalid CIDR address: 10.244.1.0/33',
    });
    await expect(h.cri.img.PullImage({ image: { image: 'Busybox' } })).rejects.toMatchObject({ code: 3 });
  });

  it('Exec and Attach of a missing container and PortForward of a missing sandbox are NOT_FOUND', async () => {
    await expect(h.cri.rt.Exec({ containerId: missing, cmd: ['sh'], stdout: true })).rejects.toMatchObject({
      code: 5,
      details: `an error occurred when try to find container "${missing}": not found`,
    });
    await expect(h.cri.rt.Attach({ containerId: missing, stdout: true })).rejects.toMatchObject({ code: 5, details: `an error occurred when try to find container "${missing}": not found` });
    await expect(h.cri.rt.PortForward({ podSandboxId: missing, port: [80] })).rejects.toMatchObject({ code: 5, details: `an error occurred when try to find sandbox "${missing}": not found` });
    await expect(h.cri.rt.PortForward({ podSandboxId: '', port: [80] })).rejects.toMatchObject({ code: 3, details: 'missing required pod_sandbox_id' });
  });
});

describe('garbage on the socket', () => {
  it('keeps serving after garbage bytes and half-open connections', async () => {
    for (const junk of [Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'), Buffer.from([0, 1, 2, 3, 255, 254, 0, 0, 0, 9]), Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n' + 'x'.repeat(100))]) {
      await new Promise<void>((resolve) => {
        const s = netConnect(h.handle.socketPath, () => {
          s.write(junk);
          setTimeout(() => s.destroy(), 20);
        });
        s.on('error', () => resolve());
        s.on('close', () => resolve());
      });
    }
    expect((await h.cri.rt.Version({ version: 'v1' })).runtimeName).toBe('containerd');
  });

  it('answers a gRPC call whose message is not protobuf with INTERNAL, and keeps serving', async () => {
    const raw = new grpc.Client(`unix://${h.handle.socketPath}`, grpc.credentials.createInsecure());
    const junk = Buffer.from([0xff, 0xff, 0xff, 0x0f, 0x01, 0x02, 0x0a, 0x80]);
    const call = (method: string) =>
      new Promise<grpc.ServiceError | null>((resolve) =>
        raw.makeUnaryRequest(
          method,
          (b: Buffer) => b,
          (b: Buffer) => b,
          junk,
          (err) => resolve(err),
        ),
      );
    try {
      expect(await call('/runtime.v1.RuntimeService/RunPodSandbox')).toMatchObject({ code: grpc.status.INTERNAL });
      expect(await call('/runtime.v1.ImageService/PullImage')).toMatchObject({ code: grpc.status.INTERNAL });
      // A method of the upstream CRI this runtime does not serve (CheckpointContainer).
      expect(await call('/runtime.v1.RuntimeService/CheckpointContainer')).toMatchObject({ code: grpc.status.UNIMPLEMENTED });
    } finally {
      raw.close();
    }
    expect((await h.cri.rt.Version({ version: 'v1' })).runtimeName).toBe('containerd');
  });
});
