// Path elements of a field set as upstream serializes them in FieldsV1
// (structured-merge-diff fieldpath: PathElement and its `f:`/`k:`/`v:`/`i:`
// encoding), and the readable form conflicts print (`.spec.replicas`,
// `[name="nginx"]`). An element is kept as its encoded string: the trie's keys
// and FieldsV1's object keys are then the same thing, nothing is converted.

/** One step of a path, encoded: `f:name`, `k:{"name":"web"}`, `v:"x"` or `i:0`. */
export type PathElement = string;
export type Path = readonly PathElement[];

export const field = (name: string): PathElement => `f:${name}`;

/** A keyed list item: key fields sorted by name, values as JSON (upstream: value.FieldList, sorted). */
export function key(fields: Record<string, unknown>): PathElement {
  const names = Object.keys(fields).sort();
  return `k:{${names.map((n) => `${JSON.stringify(n)}:${JSON.stringify(fields[n])}`).join(',')}}`;
}

/** An item of a set list, by its value. */
export const value = (v: unknown): PathElement => `v:${JSON.stringify(v)}`;

/** Whether a string is an element upstream could have written (FieldsV1 decoding). */
export function isElement(e: string): boolean {
  const tag = e.slice(0, 2);
  if (tag === 'f:') return true;
  if (tag === 'i:') return /^i:\d+$/.test(e);
  if (tag !== 'k:' && tag !== 'v:') return false;
  try {
    const parsed: unknown = JSON.parse(e.slice(2));
    return tag === 'v:' || (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed));
  } catch {
    return false;
  }
}

/** How a value prints inside brackets (upstream value.ToString: strings quoted). */
function show(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v);
}

/** The readable form of a path (upstream fieldpath.Path.String). */
export function pathString(path: Path): string {
  let out = '';
  for (const e of path) {
    const rest = e.slice(2);
    switch (e.slice(0, 2)) {
      case 'f:':
        out += `.${rest}`;
        break;
      case 'k:': {
        const fields = JSON.parse(rest) as Record<string, unknown>;
        out += `[${Object.keys(fields)
          .map((n) => `${n}=${show(fields[n])}`)
          .join(',')}]`;
        break;
      }
      case 'v:':
        out += `[=${show(JSON.parse(rest))}]`;
        break;
      default:
        out += `[${rest}]`;
    }
  }
  return out;
}
