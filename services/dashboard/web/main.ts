// The dashboard page: one event stream from the server (a snapshot, then the
// map as it changes and the flow in batches); four views drawn from it. Plain
// DOM, SVG and a canvas: rendering happens once per animation frame, however
// fast messages arrive.

import { componentOf, FlowBuffer, matches, objectKey, podStory, storyPods, type FlowFilter, type FlowMessage } from '../src/flow.ts';
import type { ComponentView, MapState, NodeView } from '../src/map-state.ts';
import type { TraceSummary } from '../src/trace-model.ts';
import { onTraces, storyTraceLinks } from './traces.ts';
import type { SchedulingDecisionRecord } from '@kubelab/proto/sched-record';
import { decisions, initScheduling, renderScheduling } from './scheduling.ts';
import { evictionOf, evictionText, nodePhase, notReadyText, taintText } from '../src/countdown.ts';
import { $, el } from './dom.ts';

const BUFFER = 5000;
const LIST_ROWS = 120;
const buffer = new FlowBuffer(BUFFER);
let map: MapState | undefined;
/** Server time minus page time, so countdowns agree with the server's clock. */
let skew = 0;
const now = () => Date.now() + skew;

// ---- frame timing (the bench reads it) --------------------------------------
const frames: number[] = [];
let lastFrame = performance.now();
function frameProbe(t: number): void {
  frames.push(t - lastFrame);
  if (frames.length > 10_000) frames.splice(0, frames.length - 10_000);
  lastFrame = t;
  requestAnimationFrame(frameProbe);
}
requestAnimationFrame(frameProbe);
(window as unknown as { __kubelab: unknown }).__kubelab = { frames, received: () => received };
let received = 0;

// ---- views ------------------------------------------------------------------
let view = 'map';
for (const b of document.querySelectorAll<HTMLButtonElement>('nav button')) {
  b.addEventListener('click', () => {
    view = b.dataset.view!;
    for (const x of document.querySelectorAll('nav button')) x.classList.toggle('active', x === b);
    for (const s of document.querySelectorAll('.view')) s.classList.toggle('active', s.id === `view-${view}`);
    dirty.map = dirty.flow = dirty.story = dirty.sched = true;
    schedule();
  });
}

const dirty = { map: false, flow: false, story: false, sched: false };
/** The list and lanes redraw at most this often, however fast messages arrive (a person reads a few lines a second). */
const FLOW_EVERY_MS = 250;
const STORY_EVERY_MS = 1000;
const lastDrawn = { flow: 0, story: 0 };
let scheduled = false;
let deferred: number | undefined;
function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame((t) => {
    scheduled = false;
    if (dirty.map) {
      renderMap();
      dirty.map = false;
    }
    if (view === 'actions') renderActions();
    if (view === 'sched' && dirty.sched) {
      renderScheduling(storyPods(buffer.toArray()));
      dirty.sched = false;
    }
    const wait = { flow: FLOW_EVERY_MS - (t - lastDrawn.flow), story: STORY_EVERY_MS - (t - lastDrawn.story) };
    let later = Infinity;
    for (const k of ['flow', 'story'] as const) {
      if (!dirty[k] || view !== k) continue;
      if (wait[k] > 0) {
        later = Math.min(later, wait[k]);
        continue;
      }
      if (k === 'flow') renderFlow();
      else renderStory();
      dirty[k] = false;
      lastDrawn[k] = t;
    }
    if (later !== Infinity && deferred === undefined) {
      deferred = window.setTimeout(() => {
        deferred = undefined;
        schedule();
      }, later);
    }
  });
}
// Countdowns tick even when nothing arrives.
setInterval(() => {
  dirty.map = true;
  schedule();
}, 1000);

// ---- 1. cluster map ---------------------------------------------------------
function age(t: number | undefined): string {
  if (t === undefined) return '–';
  const s = Math.max(0, Math.round((now() - t) / 1000));
  return `${s}s ago`;
}

/** Grey once the kubelet missed a renewal or two (it renews every quarter of the lease), until the node controller decides. */
function nodeState(n: NodeView): 'ready' | 'stale' | 'notready' {
  return nodePhase(n.ready, n.heartbeat, n.leaseDurationSeconds, now());
}

function componentBox(c: ComponentView): HTMLElement {
  let state: string = c.state;
  if (c.state === 'up' && c.heartbeat !== undefined && now() - c.heartbeat > (c.leaseDurationSeconds ?? 15) * 1000) state = 'stale';
  const box = el('div', `component ${state}`);
  box.dataset.testid = `component-${c.name}`;
  box.dataset.state = state;
  box.append(el('strong', '', c.name), el('small', '', state === 'stale' ? `lease not renewed for ${age(c.heartbeat)}` : (c.detail ?? state)));
  return box;
}

function renderMap(): void {
  if (!map) return;
  const cp = $('control-plane');
  cp.replaceChildren(...map.components.map(componentBox));
  const nodes = $('nodes');
  nodes.replaceChildren(
    ...map.nodes.map((n) => {
      const state = nodeState(n);
      const box = el('div', `node ${state}`);
      box.dataset.testid = `node-${n.name}`;
      box.dataset.state = state;
      const title = el('h3');
      title.append(el('span', '', n.name), el('span', 'status', state === 'notready' ? (n.ready === 'Unknown' ? 'NotReady (Unknown)' : 'NotReady') : state === 'stale' ? 'heartbeat late' : 'Ready'));
      box.append(title);
      if (state === 'stale' && n.heartbeat !== undefined && map) {
        const cd = el('div', 'status countdown', notReadyText(n.heartbeat, map.nodeMonitorGracePeriodMs, now()));
        cd.dataset.testid = 'notready-countdown';
        box.append(cd);
      }
      if (n.problems?.length) {
        const pr = el('div', 'problems', n.problems.join('  '));
        pr.dataset.testid = 'node-problems';
        box.append(pr);
      }
      const units = el('div', 'units');
      const kubeletStale = state !== 'ready';
      units.append(el('span', `unit${kubeletStale ? ' stale' : ''}`, `kubelet · ${age(n.heartbeat)}`), el('span', 'unit', `containerd · ${age(n.lastCri)}`), el('span', 'unit', 'kube-proxy'));
      box.append(units);
      if (n.taints.length) {
        const taints = el('div', 'taints');
        taints.dataset.testid = 'node-taints';
        for (const t of n.taintDetails ?? []) {
          const since = t.timeAdded !== undefined ? ` (${age(t.timeAdded)})` : '';
          taints.append(el('span', `taint ${t.effect}`, `${taintText(t)}${since}`));
        }
        if (!n.taintDetails) taints.textContent = n.taints.join('  ');
        box.append(taints);
      }
      const pods = el('div', 'pods');
      for (const p of map!.pods.filter((p) => p.node === n.name)) {
        const chip = el('span', `pod ${p.phase}${p.ready ? ' ready' : ''}${p.deleting ? ' deleting' : ''}`, `${p.namespace === 'default' ? '' : p.namespace + '/'}${p.name}`);
        chip.title = `${p.namespace}/${p.name} ${p.phase}${p.owner ? ` (${p.owner})` : ''}`;
        chip.dataset.testid = `pod-${p.namespace}-${p.name}`;
        const evict = p.deleting ? undefined : evictionText(evictionOf(n.taintDetails ?? [], p.tolerations), now());
        if (evict) chip.append(el('small', 'eviction', ` ${evict}`));
        pods.append(chip);
      }
      box.append(pods);
      return box;
    }),
  );
  const pending = map.pods.filter((p) => !p.node);
  if (pending.length) {
    const box = el('div', 'node notready');
    box.append(el('h3', '', 'unscheduled'));
    const pods = el('div', 'pods');
    for (const p of pending) pods.append(el('span', 'pod Pending', `${p.namespace}/${p.name}`));
    box.append(pods);
    nodes.append(box);
  }
  fillSelect(
    $('f-node'),
    map.nodes.map((n) => n.name),
    'all',
  );
}

function fillSelect(sel: HTMLSelectElement, values: string[], allLabel?: string): void {
  const want = [...(allLabel ? [''] : []), ...values];
  const have = [...sel.options].map((o) => o.value);
  if (want.join('\n') === have.join('\n')) return;
  const keep = sel.value;
  sel.replaceChildren(...want.map((v) => Object.assign(document.createElement('option'), { value: v, textContent: v || allLabel || '' })));
  if (want.includes(keep)) sel.value = keep;
}

// ---- 2. message flow --------------------------------------------------------
const filter: FlowFilter = {};
let paused = false;
/** While replaying: the messages still to show, and those shown so far. */
let replay: { queue: FlowMessage[]; shown: FlowMessage[]; timer: number | undefined } | undefined;
/** What the flow view shows when paused or replaying (frozen), else the live buffer. */
let frozen: FlowMessage[] | undefined;

function readFilter(): void {
  filter.node = ($<HTMLSelectElement>('f-node').value || undefined) as string | undefined;
  filter.component = ($<HTMLSelectElement>('f-component').value || undefined) as string | undefined;
  filter.object = $<HTMLInputElement>('f-object').value.trim() || undefined;
  filter.relist = $<HTMLInputElement>('f-relist').checked;
  dirty.flow = true;
  schedule();
}
for (const id of ['f-node', 'f-component', 'f-relist']) $(id).addEventListener('change', readFilter);
$('f-object').addEventListener('input', readFilter);

$('pause').addEventListener('click', () => {
  paused = !paused;
  if (replay?.timer !== undefined) clearInterval(replay.timer);
  if (!paused) replay = undefined;
  frozen = paused ? buffer.toArray() : undefined;
  $('pause').textContent = paused ? 'Resume' : 'Pause';
  $<HTMLButtonElement>('step').disabled = !paused;
  dirty.flow = true;
  schedule();
});

/** Replays the kept (filtered) messages in order, 20 a second; Step shows the next one while paused. */
$('replay').addEventListener('click', () => {
  const queue = buffer.select(filter);
  replay = { queue, shown: [], timer: undefined };
  paused = true;
  $('pause').textContent = 'Resume';
  $<HTMLButtonElement>('step').disabled = false;
  replay.timer = window.setInterval(stepReplay, 50);
});
$('step').addEventListener('click', () => {
  if (!replay) replay = { queue: (frozen ?? buffer.toArray()).filter((m) => matches(m, filter)), shown: [], timer: undefined };
  if (replay.timer !== undefined) {
    clearInterval(replay.timer);
    replay.timer = undefined;
  }
  stepReplay();
});
function stepReplay(): void {
  if (!replay) return;
  const next = replay.queue.shift();
  if (!next) {
    if (replay.timer !== undefined) clearInterval(replay.timer);
    replay.timer = undefined;
    return;
  }
  replay.shown.push(next);
  dirty.flow = true;
  schedule();
}

/** HH:MM:SS.mmm in local time (by hand: toLocaleTimeString builds a formatter per call, too slow for 200 rows 4 times a second). */
function time(t: number): string {
  const d = new Date(t);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

function line(m: FlowMessage): string {
  const obj = objectKey(m);
  const dur = m.durationMs !== undefined ? ` ${m.durationMs < 10 ? m.durationMs.toFixed(1) : Math.round(m.durationMs)}ms` : '';
  return `${time(m.time)}  ${m.from} → ${m.to}  ${m.method}${obj ? `  ${m.objectKind ?? ''} ${obj}` : ''}${m.detail ? `  ${m.detail}` : ''}${dur}${m.code && m.code !== 'OK' && m.code !== 'Normal' ? `  ${m.code}` : ''}`;
}

/** What the list shows: the replayed messages, the frozen ones when paused, else the newest live ones; and how many pass the filter when that is cheap to say. */
function shownFlow(): { rows: FlowMessage[]; total?: number } {
  if (replay) return { rows: replay.shown.slice(-LIST_ROWS), total: replay.shown.length };
  if (frozen) {
    const all = frozen.filter((m) => matches(m, filter));
    return { rows: all.slice(-LIST_ROWS), total: all.length };
  }
  return { rows: buffer.last(LIST_ROWS, filter) };
}

const LANE_ORDER = ['kubectl', 'dashboard', 'controller-manager', 'apiserver', 'scheduler', 'kubelet', 'containerd', 'kube-proxy'];
const rows: HTMLLIElement[] = [];
let componentsAt = 0;
function renderFlow(): void {
  const { rows: last, total } = shownFlow();
  const list = $('flow-list');
  // One <li> per row, reused: newest first.
  while (rows.length < last.length) rows.push(list.appendChild(document.createElement('li')));
  for (let i = 0; i < rows.length; i++) {
    const li = rows[i]!;
    const m = last[last.length - 1 - i];
    li.hidden = !m;
    if (!m) continue;
    const cls = `${m.kind}${m.code && !['OK', 'Normal'].includes(m.code) ? ' fail' : ''}`;
    if (li.className !== cls) li.className = cls;
    const text = line(m);
    if (li.textContent !== text) li.textContent = text;
    li.dataset.method = m.method;
  }
  $('flow-count').textContent = `${total !== undefined ? `${total} shown of ` : ''}${buffer.size} kept${paused ? (replay ? ' · replaying' : ' · paused') : ''}`;
  // Lanes: one column per component seen, an arrow per message, newest at the bottom.
  const canvas = $<HTMLCanvasElement>('lanes');
  const w = canvas.clientWidth || 900;
  if (canvas.width !== w) canvas.width = w;
  const h = canvas.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const arrows = last.slice(-28);
  const laneSet = new Set<string>();
  for (const m of arrows) laneSet.add(m.from).add(m.to);
  const lanes = [...laneSet].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const x = (l: string) => ((lanes.indexOf(l) + 0.5) * w) / Math.max(1, lanes.length);
  ctx.clearRect(0, 0, w, h);
  ctx.font = '12px system-ui';
  ctx.textAlign = 'center';
  for (const l of lanes) {
    ctx.fillStyle = '#1d2330';
    ctx.fillText(l, x(l), 14);
    ctx.strokeStyle = '#dee2e6';
    ctx.beginPath();
    ctx.moveTo(x(l), 20);
    ctx.lineTo(x(l), h);
    ctx.stroke();
  }
  const colors: Record<string, string> = { cri: '#5f3dc4', event: '#2b8a3e', watch: '#1864ab', action: '#d9480f', api: '#495057', sched: '#c2255c', proxy: '#0b7285' };
  ctx.font = '9px system-ui';
  arrows.forEach((m, i) => {
    const y = 30 + i * 10;
    const x1 = x(m.from);
    const x2 = x(m.to);
    ctx.strokeStyle = ctx.fillStyle = colors[m.kind] ?? '#495057';
    ctx.beginPath();
    ctx.moveTo(x1, y);
    // A component's own step (the scheduler's decision): a small loop on its lane.
    if (x1 === x2) ctx.rect(x1, y - 4, 18, 6);
    else ctx.lineTo(x2, y);
    ctx.stroke();
    const dir = x2 >= x1 ? 1 : -1;
    ctx.beginPath();
    ctx.moveTo(x2, y);
    ctx.lineTo(x2 - 6 * dir, y - 3);
    ctx.lineTo(x2 - 6 * dir, y + 3);
    ctx.fill();
    ctx.fillText(m.method, (x1 + x2) / 2, y - 1);
  });
  if (performance.now() - componentsAt > 2000) {
    componentsAt = performance.now();
    const comps = new Set<string>();
    for (const m of buffer.last(500, { relist: true })) comps.add(componentOf(m.from)).add(componentOf(m.to));
    fillSelect(
      $('f-component'),
      [...comps].sort((a, b) => rank(a) - rank(b)),
      'all',
    );
  }
}
function rank(lane: string): number {
  const r = LANE_ORDER.indexOf(componentOf(lane));
  return r < 0 ? LANE_ORDER.length : r;
}

// ---- 3. pod story -----------------------------------------------------------
const storySel = $<HTMLSelectElement>('story-pod');
let pickedByUser = false;
storySel.addEventListener('change', () => {
  pickedByUser = true;
  dirty.story = true;
  schedule();
});
let storySignature = '';
function renderStory(): void {
  const all = buffer.toArray();
  const pods = storyPods(all);
  fillSelect(storySel, pods);
  if (!pickedByUser && pods[0] && storySel.value !== pods[0]) storySel.value = pods[0];
  const pod = storySel.value;
  const story = podStory(all, pod);
  storyTraceLinks(pod, all);
  // Redraw only when the story changed (another pod's messages leave it as it is).
  const signature = `${pod} ${story.steps.length} ${story.startedAt} ${story.steps.at(-1)?.atMs ?? ''}`;
  if (signature === storySignature) return;
  storySignature = signature;
  $('story-summary').textContent = pod ? `${story.steps.length} messages over ${story.steps.at(-1)?.atMs ?? 0} ms` : 'no pod yet';
  const svg = $('story') as unknown as SVGSVGElement;
  const laneW = 200;
  const rowH = 22;
  const width = Math.max(600, story.lanes.length * laneW);
  const height = 40 + story.steps.length * rowH + 10;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('height', String(height));
  const ns = 'http://www.w3.org/2000/svg';
  const node = (tag: string, attrs: Record<string, string | number>, text?: string) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text) e.textContent = text;
    return e;
  };
  const x = (l: string) => (story.lanes.indexOf(l) + 0.5) * laneW;
  const parts: SVGElement[] = [];
  for (const l of story.lanes) {
    parts.push(node('text', { x: x(l), y: 16, 'text-anchor': 'middle', 'font-size': 12, 'font-weight': 600 }, l));
    parts.push(node('line', { x1: x(l), y1: 24, x2: x(l), y2: height, stroke: '#ced4da' }));
  }
  story.steps.forEach((s, i) => {
    const y = 40 + i * rowH;
    const x1 = x(s.from);
    const x2 = x(s.to);
    const color = s.kind === 'cri' ? '#5f3dc4' : s.kind === 'event' ? '#2b8a3e' : s.kind === 'watch' ? '#1864ab' : s.kind === 'sched' ? '#c2255c' : '#d9480f';
    if (x1 === x2) {
      // A component's own step (the scheduler's decision): a loop on its lane.
      parts.push(node('path', { d: `M${x1},${y - 6} h24 v10 h-24`, fill: 'none', stroke: color, 'stroke-width': 1.5 }));
      parts.push(node('path', { d: `M${x1},${y + 4} l7,-4 l0,8 z`, fill: color }));
    } else {
      parts.push(node('line', { x1, y1: y, x2, y2: y, stroke: color, 'stroke-width': 1.5 }));
      const dir = x2 >= x1 ? 1 : -1;
      parts.push(node('path', { d: `M${x2},${y} l${-7 * dir},-4 l0,8 z`, fill: color }));
    }
    const dur = s.durationMs !== undefined ? ` ${s.durationMs < 10 ? s.durationMs.toFixed(1) : Math.round(s.durationMs)}ms` : '';
    parts.push(node('text', { x: (x1 + x2) / 2, y: y - 4, 'text-anchor': 'middle', 'font-size': 10, fill: color }, `+${s.atMs}ms ${s.method}${dur}`));
  });
  svg.replaceChildren(...parts);
  $('story-steps').replaceChildren(
    ...story.steps.map((s) => {
      const li = el(
        'li',
        '',
        `+${String(s.atMs).padStart(6)}ms  ${s.from} → ${s.to}  ${s.method}${s.durationMs !== undefined ? `  ${s.durationMs.toFixed(1)}ms` : ''}${s.detail ? `  ${s.detail}` : ''}`,
      );
      li.dataset.testid = 'story-step';
      li.dataset.method = s.method;
      return li;
    }),
  );
}

// ---- 5. actions -------------------------------------------------------------
function renderActions(): void {
  if (!map) return;
  fillSelect(
    $('scale-deployment'),
    map.deployments.map((d) => `${d.namespace}/${d.name}`),
  );
  fillSelect(
    $('delete-pod'),
    map.pods.filter((p) => !p.deleting).map((p) => `${p.namespace}/${p.name}`),
  );
  const nodes = map.nodes.map((n) => n.name);
  fillSelect($('component-node'), nodes);
  fillSelect($('fault-node'), nodes);
}
async function act(path: string, body: unknown): Promise<void> {
  const out = $('action-result');
  out.textContent = 'working…';
  try {
    const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const j = (await res.json()) as { message?: string };
    out.textContent = `${res.ok ? '' : `Error from server (${res.status}): `}${j.message ?? res.statusText}`;
  } catch (e) {
    out.textContent = `Error: ${(e as Error).message}`;
  }
}
const split = (v: string) => ({ namespace: v.slice(0, v.indexOf('/')), name: v.slice(v.indexOf('/') + 1) });
$('scale-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const v = $<HTMLSelectElement>('scale-deployment').value;
  if (v) void act('api/actions/scale', { ...split(v), replicas: Number($<HTMLInputElement>('scale-replicas').value) });
});
$('delete-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const v = $<HTMLSelectElement>('delete-pod').value;
  if (v) void act('api/actions/delete-pod', split(v));
});

/** Which submit button sent the form (Stop or Start, Inject or Clear). */
const submitter = (e: Event) => (e as SubmitEvent).submitter as HTMLButtonElement | null;
$('component-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const action = submitter(e)?.dataset.action ?? 'stop';
  const node = $<HTMLSelectElement>('component-node').value;
  const unit = $<HTMLSelectElement>('component-unit').value;
  if (node && unit) void act(`api/actions/${action}`, { node, unit });
});
$('fault-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const node = $<HTMLSelectElement>('fault-node').value;
  const fault = $<HTMLSelectElement>('fault-name').value;
  if (node && fault) void act('api/actions/fault', { node, fault, clear: submitter(e)?.dataset.clear === 'true' });
});
/** The units and faults the server offers (once). */
const faultHints = new Map<string, string>();
void fetch('api/actions')
  .then((r) => r.json() as Promise<{ control: boolean; units: string[]; components: string[]; faults: { name: string; what: string; see: string }[] }>)
  .then((a) => {
    // The node's units, then the control plane's static pods (the control-plane node's only).
    fillSelect($('component-unit'), [...a.units, ...a.components]);
    fillSelect(
      $('fault-name'),
      a.faults.map((f) => f.name),
    );
    for (const f of a.faults) faultHints.set(f.name, `${f.what}. You will see: ${f.see}`);
    const hint = () => ($('fault-see').textContent = faultHints.get($<HTMLSelectElement>('fault-name').value) ?? '');
    $('fault-name').addEventListener('change', hint);
    hint();
    if (!a.control) for (const id of ['component-stop', 'component-start', 'fault-inject', 'fault-clear']) $<HTMLButtonElement>(id).disabled = true;
  })
  .catch(() => {});

// ---- the event stream -------------------------------------------------------
function connect(): void {
  const es = new EventSource('api/stream');
  es.addEventListener('snapshot', (e) => {
    const s = JSON.parse((e as MessageEvent<string>).data) as { map: MapState; flow: FlowMessage[]; decisions?: SchedulingDecisionRecord[]; serverTime: number };
    skew = s.serverTime - Date.now();
    map = s.map;
    buffer.clear();
    buffer.pushAll(s.flow);
    decisions.clear();
    decisions.pushAll(s.decisions ?? []);
    $('conn').textContent = 'live';
    dirty.map = dirty.flow = dirty.story = dirty.sched = true;
    schedule();
  });
  es.addEventListener('sched', (e) => {
    decisions.pushAll(JSON.parse((e as MessageEvent<string>).data) as SchedulingDecisionRecord[]);
    dirty.sched = true;
    schedule();
  });
  es.addEventListener('map', (e) => {
    map = JSON.parse((e as MessageEvent<string>).data) as MapState;
    dirty.map = true;
    schedule();
  });
  es.addEventListener('flow', (e) => {
    const batch = JSON.parse((e as MessageEvent<string>).data) as FlowMessage[];
    received += batch.length;
    buffer.pushAll(batch);
    dirty.flow = dirty.story = true;
    schedule();
  });
  es.addEventListener('traces', (e) => onTraces(JSON.parse((e as MessageEvent<string>).data) as { items: TraceSummary[]; receiving: boolean }));
  es.onerror = () => {
    $('conn').textContent = 'reconnecting…';
  };
}
initScheduling(() => {
  dirty.sched = true;
  schedule();
});
connect();
