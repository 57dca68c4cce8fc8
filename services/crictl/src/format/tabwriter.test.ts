import { describe, expect, it } from 'vitest';
import { formatTable } from './tabwriter.js';

describe('formatTable (text/tabwriter, minwidth 20, padding 3)', () => {
  it('pads every cell but the last to max(20, widest + 3)', () => {
    expect(
      formatTable([
        ['A', 'B', 'C'],
        ['x'.repeat(18), 'y', 'z'],
      ]),
    ).toBe(`A${' '.repeat(20)}B${' '.repeat(19)}C\n${'x'.repeat(18)}   y${' '.repeat(19)}z\n`);
  });
  it('a header alone still pads to the minimum width', () => {
    expect(formatTable([['POD', 'MEM']])).toBe(`POD${' '.repeat(17)}MEM\n`);
  });
});
