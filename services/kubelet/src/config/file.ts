// The static pod source (upstream pkg/kubelet/config/file.go): every
// manifest in --pod-manifest-path becomes a pod owned by this kubelet alone,
// named `<name>-<nodeName>`, with a UID hashed from its content, the node and
// the file, and the config.* annotations that mark its origin. The directory
// is re-read every --file-check-frequency and on file-system notifications.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, type Pod } from '@kubelab/api';
import { parseAllDocuments } from 'yaml';

export const ANNOTATION_CONFIG_SOURCE = 'kubernetes.io/config.source';
export const ANNOTATION_CONFIG_HASH = 'kubernetes.io/config.hash';
export const ANNOTATION_CONFIG_SEEN = 'kubernetes.io/config.seen';
export const ANNOTATION_CONFIG_MIRROR = 'kubernetes.io/config.mirror';

export interface StaticPodError {
  file: string;
  message: string;
}

/** Turns a manifest into the static pod the kubelet runs (upstream applyDefaults). */
export function staticPodFromManifest(raw: Pod, file: string, nodeName: string, seen: string): Pod {
  const pod: Pod = structuredClone(raw);
  if (pod.kind && pod.kind !== 'Pod') throw new Error(`invalid pod: kind is ${JSON.stringify(pod.kind)}, expected "Pod"`);
  if (!pod.metadata?.name) throw new Error('invalid pod: metadata.name: Required value: name or generateName is required');
  if (!pod.spec?.containers?.length) throw new Error('invalid pod: spec.containers: Required value');
  // Sorted keys: the hash ignores key order, as upstream's DeepHashObject.
  const hash = createHash('md5').update(canonicalJson(raw)).update(`host:${nodeName}`).update(`file:${file}`).digest('hex');
  pod.apiVersion = 'v1';
  pod.kind = 'Pod';
  pod.metadata.uid = hash;
  pod.metadata.name = `${pod.metadata.name}-${nodeName}`;
  pod.metadata.namespace ||= 'default';
  pod.metadata.annotations = {
    ...(pod.metadata.annotations ?? {}),
    [ANNOTATION_CONFIG_HASH]: hash,
    [ANNOTATION_CONFIG_SEEN]: seen,
    [ANNOTATION_CONFIG_SOURCE]: 'file',
  };
  const spec = pod.spec!;
  spec.nodeName = nodeName;
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.enableServiceLinks ??= true;
  // Static pods tolerate every NoExecute taint.
  spec.tolerations = [...(spec.tolerations ?? []), { operator: 'Exists', effect: 'NoExecute' }];
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
    if (!c.imagePullPolicy) {
      const last = (c.image ?? '').split('/').pop() ?? '';
      c.imagePullPolicy = !(c.image ?? '').includes('@') && (!last.includes(':') || last.endsWith(':latest')) ? 'Always' : 'IfNotPresent';
    }
  }
  return pod;
}

/** Reads every manifest file in dir (sorted, hidden files skipped). */
export function readManifestDir(dir: string, nodeName: string, now: () => string): { pods: Pod[]; errors: StaticPodError[] } {
  const pods: Pod[] = [];
  const errors: StaticPodError[] = [];
  if (!existsSync(dir)) return { pods, errors };
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.')) continue;
    const file = join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      const docs = parseAllDocuments(readFileSync(file, 'utf8'));
      const first = docs[0];
      if (!first) continue;
      if (first.errors.length) throw new Error(first.errors[0]!.message);
      pods.push(staticPodFromManifest(first.toJS() as Pod, file, nodeName, now()));
    } catch (e) {
      errors.push({ file, message: (e as Error).message });
    }
  }
  return { pods, errors };
}

/** Watches a manifest directory and reports the full set of static pods on every change. */
export class FileSource {
  private timer: NodeJS.Timeout | undefined;
  private watcher: FSWatcher | undefined;
  private last = '';
  private scanned = false;
  private debounce: NodeJS.Timeout | undefined;

  constructor(
    private readonly dir: string,
    private readonly nodeName: string,
    private readonly periodMs: number,
    private readonly onPods: (pods: Pod[]) => void,
    private readonly onError: (e: StaticPodError) => void,
  ) {}

  start(): void {
    this.scan();
    this.timer = setInterval(() => this.scan(), this.periodMs);
    this.timer.unref();
    try {
      this.watcher = watch(this.dir, () => {
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => this.scan(), 50);
      });
      this.watcher.on('error', () => {});
    } catch {
      // The directory may appear later: the periodic scan covers it.
    }
  }

  /**
   * Re-reads the directory; reports the first read always (even an empty or
   * missing directory: that is what marks the file source as seen, upstream's
   * sourcesReady) and later reads only when the set of pods changed.
   */
  scan(): void {
    const { pods, errors } = readManifestDir(this.dir, this.nodeName, () => new Date().toISOString());
    for (const e of errors) this.onError(e);
    const key = pods.map((p) => p.metadata.uid).join(',');
    if (this.scanned && key === this.last) return;
    this.scanned = true;
    this.last = key;
    this.onPods(pods);
  }

  stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.debounce);
    this.watcher?.close();
  }
}

/** The mirror pod the kubelet creates in the API for a static pod (upstream mirror_client). */
export function mirrorPodFor(staticPod: Pod, node: { name: string; uid: string }): Pod {
  const annotations = { ...(staticPod.metadata.annotations ?? {}) };
  annotations[ANNOTATION_CONFIG_MIRROR] = annotations[ANNOTATION_CONFIG_HASH] ?? '';
  const { uid: _uid, resourceVersion: _rv, ...meta } = staticPod.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...meta,
      annotations,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.name, uid: node.uid, controller: true }],
    },
    spec: structuredClone(staticPod.spec),
  };
}

export function isMirrorPod(pod: Pod): boolean {
  return !!pod.metadata.annotations?.[ANNOTATION_CONFIG_MIRROR];
}

export function isStaticPod(pod: Pod): boolean {
  return pod.metadata.annotations?.[ANNOTATION_CONFIG_SOURCE] === 'file';
}
