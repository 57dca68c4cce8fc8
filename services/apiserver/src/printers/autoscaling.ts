// Rows of HorizontalPodAutoscalers (upstream printHorizontalPodAutoscaler and
// formatHPAMetrics): the target as Kind/name, each metric as
// `<resource>: <current>/<target>` (at most two, then `+ N more...`), and
// the replica bounds and count.

import { hpaFromV1, type HorizontalPodAutoscalerV1 } from '@kubelab/api';
import { since } from './duration.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';

const MAX_SHOWN = 2;

/** One resource metric's `cpu: 80%/50%` (or raw averages when the target is an averageValue). */
function resourceTarget(name: string, target: Obj | undefined, current: Obj | undefined): string {
  if (target?.averageValue !== undefined) return `${name}: ${current?.averageValue ?? '<unknown>'}/${target.averageValue}`;
  const now = typeof current?.averageUtilization === 'number' ? `${current.averageUtilization}%` : '<unknown>';
  const want = typeof target?.averageUtilization === 'number' ? `${target.averageUtilization}%` : '<auto>';
  return `${name}: ${now}/${want}`;
}

export function formatHpaMetrics(specs: Obj[] | undefined, statuses: Obj[] | undefined): string {
  if (!specs?.length) return '<none>';
  const list: string[] = [];
  specs.forEach((spec, i) => {
    const status: Obj | undefined = statuses?.[i];
    if (spec.type === 'Resource') list.push(resourceTarget(spec.resource?.name ?? '', spec.resource?.target, status?.resource?.current));
    else if (spec.type === 'ContainerResource') list.push(resourceTarget(spec.containerResource?.name ?? '', spec.containerResource?.target, status?.containerResource?.current));
    else list.push('<unknown type>');
  });
  if (list.length <= MAX_SHOWN) return list.join(', ');
  return `${list.slice(0, MAX_SHOWN).join(', ')} + ${list.length - MAX_SHOWN} more...`;
}

export const horizontalPodAutoscalerPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Reference', 'string', 'The scaled resource, as Kind/name.'),
    col('Targets', 'string', "Each metric's current value over its target."),
    col('MinPods', 'string', 'The lower limit of replicas.'),
    col('MaxPods', 'integer', 'The upper limit of replicas.'),
    col('Replicas', 'string', 'The current number of replicas, as the autoscaler last saw it.'),
    AGE_COLUMN,
  ],
  cells(obj, now) {
    // autoscaling/v1 rows are v2's, as upstream prints the internal version.
    const hpa: Obj = obj.apiVersion === 'autoscaling/v1' ? hpaFromV1(obj as HorizontalPodAutoscalerV1) : obj;
    const spec: Obj = hpa.spec ?? {};
    const ref: Obj = spec.scaleTargetRef ?? {};
    return [
      hpa.metadata?.name,
      `${ref.kind ?? ''}/${ref.name ?? ''}`,
      formatHpaMetrics(spec.metrics, hpa.status?.currentMetrics),
      typeof spec.minReplicas === 'number' ? String(spec.minReplicas) : '<unset>',
      typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0,
      typeof hpa.status?.currentReplicas === 'number' ? hpa.status.currentReplicas : 0,
      since(hpa.metadata?.creationTimestamp, now),
    ];
  },
};
