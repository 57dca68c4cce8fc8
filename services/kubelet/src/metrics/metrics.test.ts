import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { Container, PodSandbox } from '../kuberuntime/cri.js';
import { countRunning, newKubeletMetrics } from './metrics.js';

const sandbox = (id: string, state: PodSandbox['state']) => ({ id, state }) as PodSandbox;
const container = (id: string, state: Container['state']) => ({ id, state }) as Container;

describe('kubelet metrics', () => {
  it('counts ready sandboxes as running pods and containers by state', () => {
    expect(
      countRunning(
        [sandbox('a', 'SANDBOX_READY'), sandbox('b', 'SANDBOX_NOTREADY'), sandbox('c', 'SANDBOX_READY')],
        [container('1', 'CONTAINER_RUNNING'), container('2', 'CONTAINER_EXITED'), container('3', 'CONTAINER_RUNNING'), container('4', 'CONTAINER_CREATED')],
      ),
    ).toEqual({ pods: 2, containers: { created: 1, running: 2, exited: 1, unknown: 0 } });
  });

  it('exposes upstream names and label sets', async () => {
    const m = newKubeletMetrics(new Registry());
    m.observeRelist([sandbox('a', 'SANDBOX_READY')], [container('1', 'CONTAINER_RUNNING')]);
    m.observePodStart(1.5);
    m.observeRuntimeOperation('exec_sync', 0.01, true);
    const text = await m.registry.metrics();
    expect(text).toContain('kubelet_running_pods 1\n');
    expect(text).toContain('kubelet_running_containers{container_state="running"} 1\n');
    expect(text).toContain('kubelet_running_containers{container_state="unknown"} 0\n');
    expect(text).toContain('kubelet_pod_start_duration_seconds_bucket{le="2"} 1\n');
    expect(text).toContain('kubelet_runtime_operations_total{operation_type="exec_sync"} 1\n');
    expect(text).toContain('kubelet_runtime_operations_errors_total{operation_type="exec_sync"} 1\n');
    expect(text).toContain('kubelet_runtime_operations_duration_seconds_bucket{le="0.0125",operation_type="exec_sync"} 1\n');
  });
});
