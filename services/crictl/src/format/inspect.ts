// What crictl inspect, inspectp, inspecti, info, imagefsinfo and version
// print (container.go marshalContainerStatus, sandbox.go
// marshalPodSandboxStatus, image.go, info.go, version.go): protojson of the
// status with timestamps as RFC 3339 text, then formatStatusData.

import {
  rfc3339Nano,
  type CriContainerStatusResponse__Output,
  type CriImageStatusResponse__Output,
  type CriPodSandboxStatusResponse__Output,
  type CriStatusResponse__Output,
  type CriVersionResponse__Output,
  type CriImageFsInfoResponse__Output,
} from '@kubelab/proto';
import { humanSize } from './humanize.js';
import { toProtoJson } from './protojson.js';
import type { StatusData } from './status.js';

export function containerStatusData(r: CriContainerStatusResponse__Output): StatusData {
  const s = r.status!;
  const json = toProtoJson('ContainerStatus', s);
  json.createdAt = rfc3339Nano(s.createdAt);
  // Started once it left CREATED; finished when it exited (or is unknown with an end time).
  json.startedAt = rfc3339Nano(s.state !== 'CONTAINER_CREATED' ? s.startedAt : 0);
  json.finishedAt = rfc3339Nano(s.state === 'CONTAINER_EXITED' || (s.state === 'CONTAINER_UNKNOWN' && Number(s.finishedAt) > 0) ? s.finishedAt : 0);
  return { status: json, info: r.info ?? {} };
}

export function podStatusData(r: CriPodSandboxStatusResponse__Output): StatusData {
  const s = r.status!;
  const json = toProtoJson('PodSandboxStatus', s);
  json.createdAt = rfc3339Nano(s.createdAt);
  return { status: json, info: r.info ?? {} };
}

export function imageStatusData(r: CriImageStatusResponse__Output): StatusData {
  return { status: toProtoJson('Image', r.image!), info: r.info ?? {} };
}

/** Go's encoding/json of a generated struct: snake_case names, zero values omitted (omitempty). */
function goStructJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(goStructJson);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (x === null || x === undefined || x === false || x === '' || x === 0 || (Array.isArray(x) && x.length === 0)) continue;
      out[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = goStructJson(x);
    }
    return out;
  }
  return v;
}

export function runtimeStatusData(r: CriStatusResponse__Output): StatusData {
  return {
    status: toProtoJson('RuntimeStatus', r.status ?? { conditions: [] }),
    runtimeHandlers: r.runtimeHandlers.length ? goStructJson(r.runtimeHandlers) : undefined,
    features: r.features ? goStructJson(r.features) : undefined,
    info: r.info ?? {},
  };
}

export function imageFsInfoData(r: CriImageFsInfoResponse__Output): StatusData {
  return { status: toProtoJson('ImageFsInfoResponse', r) };
}

/** version.go: fmt.Println("Version: ", v) puts two spaces after each colon. */
export function formatVersion(r: CriVersionResponse__Output): string {
  return `Version:  ${r.version}\nRuntimeName:  ${r.runtimeName}\nRuntimeVersion:  ${r.runtimeVersion}\nRuntimeApiVersion:  ${r.runtimeApiVersion}\n`;
}

/** image.go outputImageFsInfoTable (-o table). */
export function formatImageFsInfoTable(r: CriImageFsInfoResponse__Output): string {
  const part = (label: string, list: CriImageFsInfoResponse__Output['imageFilesystems']) =>
    `${label} Filesystem \n` +
    list
      .map(
        (v, i) =>
          `TimeStamp[${i}]: ${v.timestamp}\nDisk[${i}]: ${humanSize(Number(v.usedBytes?.value ?? 0))}\nInodes[${i}]: ${v.inodesUsed?.value ?? 0}\nMountpoint[${i}]: ${v.fsId?.mountpoint ?? ''}\n`,
      )
      .join('');
  return part('Container', r.containerFilesystems) + part('Image', r.imageFilesystems);
}
