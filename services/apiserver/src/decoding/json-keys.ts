// What JSON.parse hides about a JSON text and upstream's decoder reports:
// keys repeated within one object (sigs.k8s.io/json's strict mode: the last
// value wins, `duplicate field "spec.paused"`) and nesting too deep (Go's
// encoding/json: `invalid character '{' exceeded max depth`). One iterative
// pass, no recursion, so any depth is safe to scan; run it on text
// JSON.parse accepted.

/**
 * The nesting limit. Go's decoder allows 10000 (maxNestingDepth; its stacks
 * grow), but V8's JSON.stringify and structuredClone overflow the stack
 * between 2000 and 5000 levels, and the patch and schema walks recurse: so
 * kubelab stops at 1000, far deeper than any real object, in Go's words.
 */
export const MAX_JSON_DEPTH = 1_000;

export interface DuplicateField {
  /** Field path as upstream prints it: `spec.template.spec.containers[0].imagePullPolicy`. */
  path: string;
  /** The repeated key itself. */
  key: string;
  /** Offset of the repeated key (the second occurrence) in the text. */
  at: number;
}

export interface JsonKeys {
  duplicates: DuplicateField[];
  /** The Go decoder's error when the text nests deeper than MAX_JSON_DEPTH. */
  tooDeep?: string;
  /** Offset of each key path's first occurrence (computed only when asked: `withOffsets`). */
  firstAt?: Map<string, number>;
}

interface Frame {
  object: boolean;
  path: string;
  keys?: Set<string>;
  /** In an object: the next string is a key. */
  expectKey: boolean;
  /** The current key's path (object) or the current index (array). */
  key: string;
  index: number;
}

function childPath(f: Frame | undefined): string {
  if (!f) return '';
  return f.object ? f.key : `${f.path}[${f.index}]`;
}

export function scanJson(text: string, opts: { maxDepth?: number; withOffsets?: boolean } = {}): JsonKeys {
  const maxDepth = opts.maxDepth ?? MAX_JSON_DEPTH;
  const out: JsonKeys = { duplicates: [] };
  if (opts.withOffsets) out.firstAt = new Map();
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      let escaped = false;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x22) break;
        if (d === 0x5c /* \ */) {
          escaped = true;
          i++;
        }
      }
      const top = stack[stack.length - 1];
      if (top?.object && top.expectKey) {
        const raw = text.slice(start, i + 1);
        const key = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        const path = top.path ? `${top.path}.${key}` : key;
        if (top.keys!.has(key)) out.duplicates.push({ path, key, at: start });
        else {
          top.keys!.add(key);
          if (out.firstAt && !out.firstAt.has(path)) out.firstAt.set(path, start);
        }
        top.key = path;
        top.expectKey = false;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= maxDepth) {
        out.tooDeep = `invalid character '${text[i]}' exceeded max depth`;
        return out;
      }
      const object = c === 0x7b;
      stack.push({ object, path: childPath(stack[stack.length - 1]), expectKey: object, key: '', index: 0, ...(object ? { keys: new Set<string>() } : {}) });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.object) top.expectKey = true;
      else if (top) top.index++;
    }
  }
  return out;
}

/** The repeated keys of a JSON text in go-yaml's words (upstream decodes an apply patch as YAML): `line 5: key "name" already set in map`. */
export function yamlDuplicateLines(text: string, duplicates: readonly DuplicateField[]): string[] {
  return duplicates.map((d) => {
    let line = 1;
    for (let i = text.indexOf('\n'); i >= 0 && i < d.at; i = text.indexOf('\n', i + 1)) line++;
    return `line ${line}: key ${JSON.stringify(d.key)} already set in map`;
  });
}

/** Go's nesting error for a parsed value deeper than `maxDepth` (a YAML body's), found without recursion. */
export function valueTooDeep(value: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > maxDepth) return `invalid character '${Array.isArray(v) ? '[' : '{'}' exceeded max depth`;
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, depth + 1]);
  }
  return undefined;
}

/**
 * The strict decoding errors of a typed object in the order upstream's
 * decoder meets them: an unknown field at its first occurrence, a duplicate
 * at its second. A duplicate within an unknown field is not reported (the
 * decoder skips unknown values), as upstream for typed objects.
 */
export function objectFieldErrors(text: string | undefined, unknown: readonly string[], duplicates: readonly DuplicateField[]): string[] {
  const within = (d: string) => unknown.some((u) => d === u || d.startsWith(`${u}.`) || d.startsWith(`${u}[`));
  const dups = duplicates.filter((d) => !within(d.path));
  if (!dups.length || text === undefined) return unknown.map((u) => `unknown field "${u}"`);
  const firstAt = scanJson(text, { withOffsets: true }).firstAt!;
  return [...unknown.map((u) => ({ at: firstAt.get(u) ?? 0, text: `unknown field "${u}"` })), ...dups.map((d) => ({ at: d.at, text: `duplicate field "${d.path}"` }))]
    .sort((a, b) => a.at - b.at)
    .map((e) => e.text);
}
