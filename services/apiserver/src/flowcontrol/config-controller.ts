// API Priority and Fairness' configuration as stored objects (upstream: the
// apiserver's priority-and-fairness-config-producer post-start hook and its
// configuration controller). At start the bootstrap FlowSchemas and
// PriorityLevelConfigurations are created, and those still marked
// `apf.kubernetes.io/autoupdate-spec: "true"` get upstream's spec back; from
// then on every change in the watch cache reconfigures the dispatcher, and
// each FlowSchema's Dangling condition says whether its priority level
// exists.

import { AUTO_UPDATE_ANNOTATION, lookupResource, setDefaults, storagePrefix, type FlowSchema, type FlowSchemaCondition, type KubeObject, type PriorityLevelConfiguration } from '@kubelab/api';
import type { WatchCache } from '../cache/watch-cache.js';
import type { RequestContext } from '../registry/interface.js';
import type { ApiRegistry } from '../registry/registry.js';
import { ensure, getOrUndefined } from '../registry/ensure.js';
import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS } from './bootstrap.js';
import type { FlowControl } from './flow-control.js';

const GROUP = 'flowcontrol.apiserver.k8s.io';
const FLOW_SCHEMAS_PREFIX = storagePrefix(lookupResource(GROUP, 'v1', 'flowschemas')!);
const PRIORITY_LEVELS_PREFIX = storagePrefix(lookupResource(GROUP, 'v1', 'prioritylevelconfigurations')!);

/** The object as the apiserver writes it: without the built-in UID (the store gives it one). */
function forCreate<T extends FlowSchema | PriorityLevelConfiguration>(o: T): T {
  const copy = structuredClone(o);
  delete copy.metadata.uid;
  return copy;
}

const sameSpec = (a: KubeObject, b: KubeObject) => {
  const x = structuredClone(a);
  const y = structuredClone(b);
  setDefaults(x);
  setDefaults(y);
  return JSON.stringify((x as { spec?: unknown }).spec) === JSON.stringify((y as { spec?: unknown }).spec);
};

/** Creates the bootstrap objects, and restores upstream's spec where the autoupdate annotation allows it. */
export async function ensureFlowControlConfiguration(registry: ApiRegistry, ctx: RequestContext): Promise<void> {
  const write = async (resource: string, objs: readonly (FlowSchema | PriorityLevelConfiguration)[]) => {
    const store = registry.mustStore(GROUP, resource);
    for (const want of objs) {
      const name = want.metadata.name!;
      const have = await getOrUndefined(() => store.get(undefined, name));
      if (!have) await ensure(() => store.create(undefined, forCreate(want) as KubeObject, ctx));
      else if (have.metadata.annotations?.[AUTO_UPDATE_ANNOTATION] === 'true' && !sameSpec(have, want as KubeObject)) {
        await store.update(undefined, name, { ...have, spec: structuredClone((want as { spec?: unknown }).spec) } as KubeObject, ctx);
      }
    }
  };
  // Levels first: a FlowSchema written before its level would be Dangling for a moment.
  await write('prioritylevelconfigurations', BOOTSTRAP_PRIORITY_LEVELS);
  await write('flowschemas', BOOTSTRAP_FLOW_SCHEMAS);
}

/** The Dangling condition a FlowSchema should carry (upstream's wording). */
export function danglingCondition(fs: FlowSchema, levelExists: boolean): Omit<FlowSchemaCondition, 'lastTransitionTime'> {
  const name = fs.spec?.priorityLevelConfiguration?.name ?? '';
  return levelExists
    ? { type: 'Dangling', status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${name}" and it exists` }
    : { type: 'Dangling', status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named "${name}" but there is no such object` };
}

/** Follows the stored configuration: reconfigures the dispatcher on each change (once per turn) and keeps the Dangling conditions true. */
export class FlowControlConfigController {
  private scheduled = false;
  private stopped = false;
  private readonly unobserve: Array<() => void> = [];

  constructor(
    private readonly flow: FlowControl,
    private readonly cache: WatchCache,
    private readonly registry: ApiRegistry,
    private readonly ctx: RequestContext,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Call before the cache starts, so that its initial load is seen. */
  start(): void {
    for (const prefix of [FLOW_SCHEMAS_PREFIX, PRIORITY_LEVELS_PREFIX]) this.unobserve.push(this.cache.observe(prefix, () => this.schedule()));
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    for (const u of this.unobserve.splice(0)) u();
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.stopped) this.sync();
    });
  }

  private sync(): void {
    const schemas = this.cache.list(FLOW_SCHEMAS_PREFIX).map((e) => e.obj as FlowSchema);
    const levels = this.cache.list(PRIORITY_LEVELS_PREFIX).map((e) => e.obj as PriorityLevelConfiguration);
    // Until the bootstrap objects are stored, the built-in ones stay in force.
    if (levels.length === 0) return;
    this.flow.configure(schemas, levels);
    const names = new Set(levels.map((l) => l.metadata.name));
    for (const fs of schemas) {
      const want = danglingCondition(fs, names.has(fs.spec?.priorityLevelConfiguration?.name));
      const have = fs.status?.conditions?.find((c) => c.type === 'Dangling');
      if (have && have.status === want.status && have.reason === want.reason && have.message === want.message) continue;
      const status = { conditions: [{ ...want, lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] };
      this.registry
        .mustStore(GROUP, 'flowschemas')
        .patch(undefined, fs.metadata.name!, 'application/merge-patch+json', { status }, this.ctx, 'status')
        .catch((err: unknown) => this.onError(err));
    }
  }
}
