// The simple JSON paths CRDs use (upstream: additionalPrinterColumns'
// jsonPath, evaluated by client-go's jsonpath; the scale subresource's
// specReplicasPath/statusReplicasPath/labelSelectorPath): `.a.b`, `.a[0]`,
// `.a['key.with.dots']`, `.a[*].b`.

type Step = { field: string } | { index: number } | { all: true };

/** The steps of a path, or undefined when it is not one of the simple forms. */
export function parsePath(path: string): Step[] | undefined {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1);
  const steps: Step[] = [];
  let i = 0;
  while (i < p.length) {
    if (p[i] === '.') {
      const m = /^\.([A-Za-z0-9_-]+)/.exec(p.slice(i));
      if (!m) return undefined;
      steps.push({ field: m[1]! });
      i += m[0].length;
    } else if (p[i] === '[') {
      const m = /^\[(?:(\d+)|\*|'([^']*)'|"([^"]*)")\]/.exec(p.slice(i));
      if (!m) return undefined;
      if (m[1] !== undefined) steps.push({ index: Number(m[1]) });
      else if (m[2] !== undefined || m[3] !== undefined) steps.push({ field: (m[2] ?? m[3])! });
      else steps.push({ all: true });
      i += m[0].length;
    } else return undefined;
  }
  return steps.length ? steps : undefined;
}

/** Every value the path reaches in `obj` (none when a step is missing). */
export function evaluate(obj: unknown, path: string): unknown[] {
  const steps = parsePath(path);
  if (!steps) return [];
  let cur: unknown[] = [obj];
  for (const s of steps) {
    const next: unknown[] = [];
    for (const v of cur) {
      if ('field' in s) {
        if (typeof v === 'object' && v !== null && !Array.isArray(v) && s.field in v) next.push((v as Record<string, unknown>)[s.field]);
      } else if ('index' in s) {
        if (Array.isArray(v) && s.index < v.length) next.push(v[s.index]);
      } else if (Array.isArray(v)) next.push(...v);
      else if (typeof v === 'object' && v !== null) next.push(...Object.values(v));
    }
    cur = next;
  }
  return cur;
}

/** Sets `value` at a `.a.b` path, creating objects on the way (the scale subresource's writes). */
export function setAtPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const steps = parsePath(path);
  if (!steps || !steps.every((s) => 'field' in s)) throw new Error(`unsupported path ${path}`);
  let cur = obj;
  steps.forEach((s, i) => {
    const f = (s as { field: string }).field;
    if (i === steps.length - 1) cur[f] = value;
    else {
      const n = cur[f];
      if (typeof n !== 'object' || n === null || Array.isArray(n)) cur[f] = {};
      cur = cur[f] as Record<string, unknown>;
    }
  });
}
