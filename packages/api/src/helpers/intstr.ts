// apimachinery's intstr.GetScaledValueFromIntOrPercent: an IntOrString such as
// maxSurge/maxUnavailable is either a count or a percentage of a total.
import type { IntOrString } from '../meta/types.js';

/**
 * A number is returned as is; "N%" scales `total`, rounding up or down.
 * Any other string throws with upstream's message (e.g. "5" is not a percentage).
 */
export function getScaledValueFromIntOrPercent(v: IntOrString | undefined | null, total: number, roundUp: boolean): number {
  if (v === undefined || v === null) throw new Error('nil value for IntOrString');
  if (typeof v === 'number') return Math.trunc(v);
  if (!v.endsWith('%')) throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  const digits = v.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits)) throw new Error(`invalid value for IntOrString: invalid value "${v}": strconv.Atoi: parsing "${digits}": invalid syntax`);
  const raw = (Number(digits) * total) / 100;
  return roundUp ? Math.ceil(raw) : Math.floor(raw);
}
