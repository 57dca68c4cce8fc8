// Lenient reading of the JSON records kubelab writes on its own channels (the
// CRI call record, the sandbox network note): a record from an older or newer
// writer still reads, wrong-typed fields give way to defaults. No imports, so
// that `@kubelab/proto/cri-record` stays loadable without gRPC.

/** A JSON object (not an array or null), or undefined. */
export const jsonObject = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** The object a message body holds; undefined when it is not JSON or not an object. */
export function parseJsonObject(data: string): Record<string, unknown> | undefined {
  try {
    return jsonObject(JSON.parse(data));
  } catch {
    return undefined;
  }
}
