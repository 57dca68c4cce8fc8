// Table output of custom resources (upstream: apiextensions'
// tableconvertor): Name, then the version's additionalPrinterColumns, each
// cell the column's JSONPath in the object, typed as the column says; a
// version without columns prints Age.

import type { CustomResourceColumnDefinition } from '@kubelab/api';
import { since } from '../printers/duration.js';
import { col, NAME_COLUMN, type Obj, type Printer, type TableColumnDefinition } from '../printers/table.js';
import { evaluate } from './jsonpath.js';

/** What a version without additionalPrinterColumns prints (upstream: the default Age column). */
export const DEFAULT_COLUMNS: readonly CustomResourceColumnDefinition[] = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }];

const TYPES = new Set(['string', 'integer', 'number', 'boolean', 'date']);

/** One cell: the first value the path reaches, as the column's type prints it (absent: null, which kubectl shows as <none>). */
export function cell(c: CustomResourceColumnDefinition, obj: Obj, now: Date): unknown {
  const values = evaluate(obj, c.jsonPath);
  if (values.length === 0 || values[0] === null || values[0] === undefined) return null;
  const v = values[0];
  switch (c.type) {
    case 'date':
      return typeof v === 'string' ? since(v, now) : null;
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v) ? v : null;
    case 'number':
      return typeof v === 'number' ? v : null;
    case 'boolean':
      return typeof v === 'boolean' ? v : null;
    default:
      // Several values (a [*] path) print comma-separated; objects as their JSON, as jsonpath prints them.
      return values.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(',');
  }
}

export function customResourcePrinter(columns: readonly CustomResourceColumnDefinition[]): Printer {
  const cols = columns.length ? columns : DEFAULT_COLUMNS;
  const defs: TableColumnDefinition[] = [
    NAME_COLUMN,
    ...cols.map((c) => ({ ...col(c.name, TYPES.has(c.type) ? (c.type as TableColumnDefinition['type']) : 'string', c.description ?? '', c.priority ?? 0), format: c.format ?? '' })),
  ];
  return {
    columns: defs,
    cells: (o, now) => [o.metadata?.name, ...cols.map((c) => cell(c, o, now))],
  };
}
