// Label and selector strings as the printers show them (upstream:
// labels.FormatLabels and metav1.LabelSelectorAsSelector(...).String()).

/** `a=1,b=2` sorted by key, or `<none>`. */
export function formatLabels(labels: Record<string, string> | null | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels![k]}`).join(',');
}

interface Requirement {
  key: string;
  operator: string;
  values?: string[];
}

/** A LabelSelector in its string form: requirements sorted by key (`app=web,tier in (a,b)`). */
export function selectorString(sel: { matchLabels?: Record<string, string>; matchExpressions?: Requirement[] } | null | undefined): string {
  if (!sel) return '';
  const reqs: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) reqs.push({ key: k, text: `${k}=${v}` });
  for (const e of sel.matchExpressions ?? []) {
    const vals = [...(e.values ?? [])].sort().join(',');
    const text =
      e.operator === 'In'
        ? `${e.key} in (${vals})`
        : e.operator === 'NotIn'
          ? `${e.key} notin (${vals})`
          : e.operator === 'Exists'
            ? e.key
            : e.operator === 'DoesNotExist'
              ? `!${e.key}`
              : `${e.key} ${e.operator} (${vals})`;
    reqs.push({ key: e.key, text });
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return reqs.map((r) => r.text).join(',');
}
