// helper.DefaultNormalizeScore: scales scores so the best is maxPriority;
// `reverse` makes the lowest raw score best (e.g. fewest intolerable taints).

import type { NodeScore } from '../../framework/interface.js';

export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): void {
  let max = 0;
  for (const s of scores) if (s.score > max) max = s.score;
  if (max === 0) {
    if (reverse) for (const s of scores) s.score = maxPriority;
    return;
  }
  for (const s of scores) {
    let v = Math.trunc((maxPriority * s.score) / max);
    if (reverse) v = maxPriority - v;
    s.score = v;
  }
}
