// metav1.Table and the registry of per-kind printers that fill it (upstream:
// pkg/printers TableGenerator + the handlers in printers/internalversion).
// The server always prints wide; kubectl hides priority>0 columns itself.

export type Obj = Record<string, any>;

export interface TableColumnDefinition {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format: string;
  description: string;
  priority: number;
}

export interface TableRow {
  cells: unknown[];
  object?: unknown;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

export interface Printer {
  columns: TableColumnDefinition[];
  /** The row's cells, one per column, for an object at time `now`. */
  cells(obj: Obj, now: Date): unknown[];
  /** The rows' order where the list printer sorts (upstream printFlowSchemaList); absent: the list's order. */
  compare?(a: Obj, b: Obj): number;
}

/** A column: `col('Ready', 'string', 'why', 1)`. */
export function col(name: string, type: TableColumnDefinition['type'], description: string, priority = 0): TableColumnDefinition {
  return { name, type, format: name === 'Name' ? 'name' : '', description, priority };
}

export const NAME_COLUMN = col('Name', 'string', 'Name must be unique within a namespace.');
export const AGE_COLUMN = col('Age', 'date', 'How long ago the object was created (metadata.creationTimestamp).');
