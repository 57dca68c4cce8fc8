// 4. Scheduling decisions: for the picked pod, the scheduler's last decision
// record as kube-scheduler-simulator shows one — nodes × Filter plugins (✓ or
// upstream's reason) and Score plugins × feasible nodes with totals, the
// chosen node highlighted — and the recent records to pick from. Records
// arrive on the page's event stream (`sched`), never polled.

import type { SchedulingDecisionRecord } from '@kubelab/proto/sched-record';
import { decisionHeadline, DecisionStore, filterTable, scoreTable } from '../src/sched-view.ts';
import { $, el } from './dom.ts';

export const decisions = new DecisionStore(200);

/** The record shown: one picked from the recent list, else the picked pod's newest. */
let pickedRecord: SchedulingDecisionRecord | undefined;
let pickedByUser = false;
let signature = '';

function clock(iso: string): string {
  const d = new Date(iso);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** Wires the pod selector; `onChange` asks the page for a redraw. */
export function initScheduling(onChange: () => void): void {
  $('sched-pod').addEventListener('change', () => {
    pickedByUser = true;
    pickedRecord = undefined;
    onChange();
  });
}

/** Draws the view. `pods`: the pods the story view offers, merged with those that have a record. */
export function renderScheduling(storyPods: string[]): void {
  const sel = $<HTMLSelectElement>('sched-pod');
  const withRecords = decisions.pods();
  const pods = [...withRecords, ...storyPods.filter((p) => !withRecords.includes(p))];
  const have = [...sel.options].map((o) => o.value);
  if (have.join('\n') !== pods.join('\n')) {
    const keep = sel.value;
    sel.replaceChildren(...pods.map((v) => Object.assign(document.createElement('option'), { value: v, textContent: v })));
    if (pods.includes(keep)) sel.value = keep;
  }
  if (!pickedByUser && withRecords[0] && sel.value !== withRecords[0]) sel.value = withRecords[0];
  const rec = pickedRecord ?? decisions.latest(sel.value);

  // Recent records, newest first; a click shows that one.
  const recent = decisions.recent(30);
  const list = $('sched-recent');
  list.replaceChildren(
    ...recent.map((r) => {
      const outcome = r.result === 'Scheduled' ? `→ ${r.node}` : r.result === 'Unschedulable' ? 'FailedScheduling' : r.result;
      const text = `${clock(r.time)}  ${r.namespace}/${r.name}  ${outcome}`;
      const li = el('li', `${r.result === 'Scheduled' ? 'ok' : 'fail'}${r === rec ? ' picked' : ''}`, text);
      li.title = r.message ? `${text}: ${r.message}` : text;
      li.dataset.testid = 'sched-record';
      li.addEventListener('click', () => {
        pickedRecord = r;
        pickedByUser = true;
        sel.value = `${r.namespace}/${r.name}`;
        signature = '';
        renderScheduling(storyPods);
      });
      return li;
    }),
  );

  const sig = rec ? `${rec.namespace}/${rec.name} ${rec.time} ${rec.cycle}` : `none ${sel.value}`;
  if (sig === signature) return;
  signature = sig;
  $('sched-summary').textContent = rec ? decisionHeadline(rec) : sel.value ? `no decision record for ${sel.value} yet` : 'no decision yet';
  $('sched-summary').className = rec?.result === 'Scheduled' ? 'ok' : rec ? 'fail' : '';
  const filters = $('sched-filter');
  const scores = $('sched-score');
  if (!rec) {
    filters.replaceChildren();
    scores.replaceChildren();
    $('sched-score-note').textContent = '';
    return;
  }

  const ft = filterTable(rec);
  const head = el('tr');
  head.append(el('th', '', 'node'), ...ft.columns.map((c) => el('th', '', c)));
  const body = ft.rows.map((r) => {
    const tr = el('tr', `${r.verdict}${r.chosen ? ' chosen' : ''}`);
    tr.dataset.node = r.node;
    tr.append(el('th', '', r.chosen ? `${r.node} ★` : r.node), ...r.cells.map((c) => el('td', c.state, c.text)));
    return tr;
  });
  filters.replaceChildren(el('caption', '', `Filter — ${rec.feasibleNodes} feasible of ${rec.numAllNodes}${rec.omittedNodes ? ` (${rec.omittedNodes} not listed)` : ''}`), head, ...body);

  const st = scoreTable(rec);
  $('sched-score-note').textContent = st.note ?? '';
  if (st.nodes.length === 0) {
    scores.replaceChildren();
    return;
  }
  const sh = el('tr');
  sh.append(el('th', '', 'plugin (weight)'), ...st.nodes.map((n) => el('th', n === st.chosen ? 'chosen' : '', n === st.chosen ? `${n} ★` : n)));
  const rows = st.rows.map((r) => {
    const tr = el('tr');
    tr.append(el('th', '', `${r.plugin} (${r.weight})`), ...r.cells.map((c, i) => el('td', st.nodes[i] === st.chosen ? 'chosen' : '', c.text)));
    return tr;
  });
  const total = el('tr', 'total');
  total.append(el('th', '', 'total'), ...st.totals.map((t, i) => el('td', st.nodes[i] === st.chosen ? 'chosen' : '', String(t))));
  scores.replaceChildren(el('caption', '', 'Score — raw → normalized ×weight = weighted'), sh, ...rows, total);
}
