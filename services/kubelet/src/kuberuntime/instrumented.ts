// The kubelet's CRI client wrapped with operation metrics (upstream
// kuberuntime instrumented_services.go): every call counts once under its
// operation_type, with its duration, and failed calls count as errors.

import type { RuntimeService } from './cri.js';

/** CRI client method → upstream operation_type label. */
export const OPERATION_TYPES = {
  version: 'version',
  status: 'status',
  updateRuntimeConfig: 'update_runtime_config',
  runPodSandbox: 'run_podsandbox',
  stopPodSandbox: 'stop_podsandbox',
  removePodSandbox: 'remove_podsandbox',
  podSandboxStatus: 'podsandbox_status',
  listPodSandbox: 'list_podsandbox',
  createContainer: 'create_container',
  startContainer: 'start_container',
  stopContainer: 'stop_container',
  removeContainer: 'remove_container',
  listContainers: 'list_containers',
  containerStatus: 'container_status',
  reopenContainerLog: 'reopen_container_log',
  execSync: 'exec_sync',
  exec: 'exec',
  attach: 'attach',
  portForward: 'port_forward',
  listContainerStats: 'list_container_stats',
  listImages: 'list_images',
  imageStatus: 'image_status',
  pullImage: 'pull_image',
  // kubelab's verbose PodSandboxStatus read of the port map is the same RPC.
  sandboxAddress: 'podsandbox_status',
} as const satisfies Record<string, string>;

export type RecordOperation = (operation: string, seconds: number, failed: boolean) => void;

/**
 * Wraps every unary CRI method of rt. An ExecSync with a non-zero exit code
 * counts as an error, as upstream's remote client returns an exit error then.
 */
export function instrumentRuntime<T extends RuntimeService>(rt: T, record: RecordOperation, now: () => number = () => performance.now()): T {
  const wrapped: Record<string, unknown> = {};
  for (const [method, operation] of Object.entries(OPERATION_TYPES)) {
    const fn = (rt as unknown as Record<string, unknown>)[method];
    if (typeof fn !== 'function') continue;
    wrapped[method] = async (...args: unknown[]) => {
      const start = now();
      let failed = true;
      try {
        const out = await (fn as (...a: unknown[]) => Promise<unknown>).apply(rt, args);
        failed = method === 'execSync' && (out as { exitCode?: number }).exitCode !== 0;
        return out;
      } finally {
        record(operation, (now() - start) / 1000, failed);
      }
    };
  }
  // A traced view (a sync's calls under its span) is counted like the runtime itself.
  const traced = rt.withTraceContext;
  if (traced) wrapped.withTraceContext = (ctx: Parameters<typeof traced>[0]) => instrumentRuntime(traced.call(rt, ctx), record, now);
  if (rt.getContainerEvents) {
    const events = rt.getContainerEvents.bind(rt);
    // A stream: counted when it ends, its duration the stream's lifetime (as upstream).
    wrapped.getContainerEvents = (onEvent: Parameters<typeof events>[0], onEnd: Parameters<typeof events>[1]) => {
      const start = now();
      return events(onEvent, (err) => {
        record('get_container_events', (now() - start) / 1000, err !== undefined);
        onEnd(err);
      });
    };
  }
  return new Proxy(rt, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop in wrapped) return wrapped[prop];
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}
