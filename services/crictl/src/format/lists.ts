// The tables of crictl ps, pods and images (container.go OutputContainers,
// sandbox.go OutputPodSandboxes, image.go's images command): pure functions
// from the runtime's answers and "now" to the printed text.

import { nanosToMs, type CriContainer__Output, type CriImage__Output, type CriPodSandbox__Output } from '@kubelab/proto';
import { ago, humanSizeWithPrecision } from './humanize.js';
import { formatTable } from './tabwriter.js';

/** util.go truncatedIDLen: IDs are cut to 13 characters unless --no-trunc. */
export const TRUNCATED_ID_LEN = 13;

export function truncatedId(id: string, prefix = ''): string {
  const s = prefix && id.startsWith(prefix) ? id.slice(prefix.length) : id;
  return s.length > TRUNCATED_ID_LEN ? s.slice(0, TRUNCATED_ID_LEN) : s;
}

const POD_NAME_LABEL = 'io.kubernetes.pod.name';
const POD_NAMESPACE_LABEL = 'io.kubernetes.pod.namespace';
const fromLabels = (labels: Record<string, string> | undefined, key: string) => labels?.[key] ?? 'unknown';

export function containerStateName(state: string): string {
  const names: Record<string, string> = { CONTAINER_CREATED: 'Created', CONTAINER_RUNNING: 'Running', CONTAINER_EXITED: 'Exited', CONTAINER_UNKNOWN: 'Unknown' };
  const n = names[state];
  if (!n) throw new Error(`unknown container state "${state}"`);
  return n;
}

export function podStateName(state: string): string {
  if (state === 'SANDBOX_READY') return 'Ready';
  if (state === 'SANDBOX_NOTREADY') return 'NotReady';
  throw new Error(`unknown pod state "${state}"`);
}

const sortedKeys = (m: Record<string, string> | undefined) => Object.keys(m ?? {}).sort();
const keyLines = (title: string, m: Record<string, string> | undefined) => [`${title}:`, ...sortedKeys(m).map((k) => `\t${k} -> ${m![k]}`)];

/** A digest image reference (`sha256:<64 hex>`), which crictl shortens like an ID. */
const DIGEST = /^([a-z0-9]+(?:[.+_-][a-z0-9]+)*):([a-f0-9]{32,})$/;

export interface ListView {
  quiet?: boolean;
  verbose?: boolean;
  noTrunc?: boolean;
}

export function formatContainers(list: CriContainer__Output[], nowMs: number, v: ListView = {}): string {
  if (v.quiet) return list.map((c) => `${c.id}\n`).join('');
  if (v.verbose)
    return list
      .map((c) =>
        [
          `ID: ${c.id}`,
          `PodID: ${c.podSandboxId}`,
          `Namespace: ${fromLabels(c.labels, POD_NAMESPACE_LABEL)}`,
          ...(c.metadata ? [...(c.metadata.name ? [`Name: ${c.metadata.name}`] : []), `Attempt: ${c.metadata.attempt}`] : []),
          `State: ${containerStateName(c.state)}`,
          ...(c.image ? [`Image: ${c.image.image}`] : []),
          `Created: ${ago(c.createdAt, nowMs)}`,
          ...keyLines('Labels', c.labels),
          ...keyLines('Annotations', c.annotations),
          '',
        ]
          .map((l) => `${l}\n`)
          .join(''),
      )
      .join('');
  const rows = [['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD', 'NAMESPACE']];
  for (const c of list) {
    let image = c.image?.image ?? '';
    let id = c.id;
    let podId = c.podSandboxId;
    if (!v.noTrunc) {
      id = truncatedId(id);
      podId = truncatedId(podId);
      const d = DIGEST.exec(image);
      if (d) image = truncatedId(image, `${d[1]}:`);
    }
    rows.push([
      id,
      image,
      ago(c.createdAt, nowMs),
      containerStateName(c.state),
      c.metadata?.name ?? '',
      String(c.metadata?.attempt ?? 0),
      podId,
      fromLabels(c.labels, POD_NAME_LABEL),
      fromLabels(c.labels, POD_NAMESPACE_LABEL),
    ]);
  }
  return formatTable(rows);
}

const runtimeHandler = (p: CriPodSandbox__Output) => p.runtimeHandler || '(default)';

export function formatPods(list: CriPodSandbox__Output[], nowMs: number, v: ListView = {}): string {
  if (v.quiet) return list.map((p) => `${p.id}\n`).join('');
  if (v.verbose)
    return list
      .map((p) => {
        const m = p.metadata;
        return [
          `ID: ${p.id}`,
          ...(m
            ? [...(m.name ? [`Name: ${m.name}`] : []), ...(m.uid ? [`UID: ${m.uid}`] : []), ...(m.namespace ? [`Namespace: ${m.namespace}`] : []), ...(m.attempt ? [`Attempt: ${m.attempt}`] : [])]
            : []),
          `Status: ${podStateName(p.state)}`,
          `Created: ${goTimeString(nanosToMs(p.createdAt))}`,
          ...keyLines('Labels', p.labels),
          ...keyLines('Annotations', p.annotations),
          `Runtime: ${runtimeHandler(p)}`,
          '',
        ]
          .map((l) => `${l}\n`)
          .join('');
      })
      .join('');
  const rows = [['POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME']];
  for (const p of list)
    rows.push([
      v.noTrunc ? p.id : truncatedId(p.id),
      ago(p.createdAt, nowMs),
      podStateName(p.state),
      p.metadata?.name ?? '',
      p.metadata?.namespace ?? '',
      String(p.metadata?.attempt ?? 0),
      runtimeHandler(p),
    ]);
  return formatTable(rows);
}

/** Go's time.Time String() in UTC: `2026-12-01 13:33:15.123456789 +0000 UTC`. */
export function goTimeString(ms: number, nanosWithinMs = 0): string {
  const d = new Date(ms);
  const frac = String((d.getUTCMilliseconds() * 1_000_000 + nanosWithinMs) / 1e9).slice(1);
  return `${d.toISOString().slice(0, 19).replace('T', ' ')}${frac === '' || frac === '0' ? '' : frac} +0000 UTC`;
}

/** image.go normalizeRepoDigest: the first repo digest split at '@'. */
export function normalizeRepoDigest(repoDigests: string[]): [string, string] {
  if (repoDigests.length === 0) return ['<none>', '<none>'];
  const pair = repoDigests[0]!.split('@');
  if (pair.length !== 2) return ['errorName', 'errorRepoDigest'];
  return [pair[0]!, pair[1]!];
}

/** image.go normalizeRepoTagPair: each repo tag as [repository, tag]. */
export function normalizeRepoTagPairs(repoTags: string[], imageName: string): [string, string][] {
  if (repoTags.length === 0) return [[imageName, '<none>']];
  return repoTags.map((t) => {
    const i = t.lastIndexOf(':');
    if (i === -1) return ['errorRepoTag', 'errorRepoTag'];
    const name = t.slice(0, i);
    return [name === '<none>' ? imageName : name, t.slice(i + 1)];
  });
}

export interface ImagesView extends ListView {
  digests?: boolean;
  pinned?: boolean;
}

export function formatImages(list: CriImage__Output[], v: ImagesView = {}): string {
  if (v.quiet) return list.map((i) => `${i.id}\n`).join('');
  if (v.verbose)
    return list
      .map(
        (i) =>
          [
            `ID: ${i.id}`,
            ...i.repoTags.map((t) => `RepoTags: ${t}`),
            ...i.repoDigests.map((d) => `RepoDigests: ${d}`),
            ...(Number(i.size) !== 0 ? [`Size: ${i.size}`] : []),
            ...(i.uid ? [`Uid: {${i.uid.value}}`] : []),
            ...(i.username ? [`Username: ${i.username}`] : []),
            ...(i.pinned ? ['Pinned: true'] : []),
          ]
            .map((l) => `${l}\n`)
            .join('') + '\n',
      )
      .join('');
  const header = ['IMAGE', 'TAG', ...(v.digests ? ['DIGEST'] : []), 'IMAGE ID', 'SIZE', ...(v.pinned ? ['PINNED'] : [])];
  const rows = [header];
  for (const i of list) {
    const [imageName, digest] = normalizeRepoDigest(i.repoDigests);
    const id = v.noTrunc ? i.id : truncatedId(i.id, 'sha256:');
    const repoDigest = v.noTrunc ? digest : truncatedId(digest, 'sha256:');
    const size = humanSizeWithPrecision(Number(i.size), 3);
    for (const [repo, tag] of normalizeRepoTagPairs(i.repoTags, imageName)) rows.push([repo, tag, ...(v.digests ? [repoDigest] : []), id, size, ...(v.pinned ? [String(i.pinned)] : [])]);
  }
  return formatTable(rows);
}
