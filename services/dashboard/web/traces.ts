// The Traces view: the traces the dashboard received over OTLP (the list is
// pushed on the event stream as spans arrive), and one trace as a waterfall —
// a bar per span on a shared time axis, indented under its parent, coloured
// by service; a span's attributes when clicked. The pod story links here
// when its messages carry a trace id the dashboard holds.

import { objectKey, RELIST_METHODS, type FlowMessage } from '../src/flow.ts';
import { waterfall, type StoredSpan, type TraceSummary } from '../src/trace-model.ts';
import { axisTop } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type D3ZoomEvent, type ZoomTransform } from 'd3-zoom';
import { $, el } from './dom.ts';

let summaries: TraceSummary[] = [];
let receiving = false;
const known = new Map<string, TraceSummary>();
let selected: string | undefined;
let shown: { id: string; count: number } | undefined;
let spans: StoredSpan[] = [];
let pickedSpan: string | undefined;
let lastStory: { pod: string; messages: readonly FlowMessage[] } | undefined;

const PALETTE = ['#1864ab', '#5f3dc4', '#2b8a3e', '#d9480f', '#c2255c', '#0b7285', '#5c940d', '#e67700', '#862e9c', '#364fc7'];
const colours = new Map<string, string>();
function colour(service: string): string {
  if (!colours.has(service)) colours.set(service, PALETTE[colours.size % PALETTE.length]!);
  return colours.get(service)!;
}

const visible = () => $('view-traces').classList.contains('active');

export function ms(v: number): string {
  return v < 1 ? `${(v * 1000).toFixed(0)}µs` : v < 10 ? `${v.toFixed(2)}ms` : v < 1000 ? `${v.toFixed(1)}ms` : `${(v / 1000).toFixed(2)}s`;
}
const clock = (t: number) => new Date(t).toTimeString().slice(0, 8) + '.' + String(Math.floor(t % 1000)).padStart(3, '0');

/** The event stream's `traces` event: the newest traces' summaries. */
export function onTraces(data: { items: TraceSummary[]; receiving: boolean }): void {
  summaries = data.items;
  receiving = data.receiving;
  known.clear();
  for (const s of summaries) known.set(s.traceId, s);
  if (lastStory && $('view-story').classList.contains('active')) storyTraceLinks(lastStory.pod, lastStory.messages);
  if (!visible()) return;
  renderList();
  // The open trace grew: fetch it again (once per pushed change, never on a timer).
  const s = selected ? known.get(selected) : undefined;
  if (s && shown?.id === s.traceId && shown.count !== s.spanCount) void load(s.traceId);
}

/** A trace that is one of the runtime calls the kubelet repeats every relist (hidden unless asked for, as in the flow). */
const isRelist = (s: TraceSummary) => RELIST_METHODS.has(s.rootName.slice(s.rootName.lastIndexOf('/') + 1));

function renderList(): void {
  const table = $('trace-list');
  const withRelist = ($('traces-relist') as HTMLInputElement).checked;
  const shown = withRelist ? summaries : summaries.filter((s) => !isRelist(s) || s.traceId === selected);
  $('traces-summary').textContent = summaries.length
    ? `${shown.length} of the ${summaries.length} newest traces (newest first)`
    : receiving
      ? 'No traces received yet. The components send theirs here when tracing is on (pnpm kubelab up --tracing-sampling-rate-per-million=1000000; compose: TRACING_ENDPOINT=dashboard:4317), or POST OTLP/HTTP to /v1/traces.'
      : 'This dashboard does not receive traces.';
  const head = el('tr');
  for (const h of ['started', 'root span', 'service', 'duration', 'spans', 'services']) head.append(el('th', '', h));
  const rows = shown.map((s) => {
    const tr = el('tr', s.traceId === selected ? 'selected' : '');
    tr.dataset.testid = 'trace-row';
    tr.dataset.traceId = s.traceId;
    tr.append(
      el('td', 'num', clock(s.startMs)),
      el('td', 'name', s.rootName),
      el('td', '', s.rootService),
      el('td', 'num', ms(s.durationMs)),
      el('td', 'num', String(s.spanCount)),
      el('td', 'services', s.services.join(', ')),
    );
    if (s.errors) tr.classList.add('error');
    tr.addEventListener('click', () => showTrace(s.traceId));
    return tr;
  });
  table.replaceChildren(head, ...rows);
}

async function load(id: string): Promise<void> {
  try {
    const res = await fetch(`api/traces/${id}`);
    if (!res.ok) {
      spans = [];
      shown = { id, count: 0 };
      $('waterfall').replaceChildren(el('p', 'legend', `Trace ${id}: no spans received for it (yet).`));
      return;
    }
    const body = (await res.json()) as { spans: StoredSpan[] };
    spans = body.spans;
    shown = { id, count: spans.length };
    renderWaterfall(id);
  } catch (e) {
    $('waterfall').replaceChildren(el('p', 'legend', `Error: ${(e as Error).message}`));
  }
}

/** Opens the Traces view on one trace. */
export function showTrace(id: string): void {
  selected = id;
  pickedSpan = undefined;
  const button = document.querySelector<HTMLButtonElement>('nav button[data-view=traces]');
  if (button && !visible()) button.click();
  renderList();
  void load(id);
}

// The waterfall's time axis: a d3 linear scale from ms after the trace's first
// span to pixels of the bars' track, drawn by d3-axis; d3-zoom rescales it
// (wheel zooms about the pointer, drag pans, "reset zoom" goes back to the
// whole trace). The zoom is kept while the same trace grows or a span is picked.
let zoomed: { id: string; t: ZoomTransform } | undefined;

/** Tick labels for ticks `step` ms apart up to `max` ms: the unit the largest needs, as many decimals as the step needs. */
export function tickFormat(step: number, max: number): (v: number) => string {
  const decimals = (s: number) => Math.max(0, Math.min(6, -Math.floor(Math.log10(s) + 1e-9)));
  if (max < 1) return (v) => `${(v * 1000).toFixed(decimals(step * 1000))}µs`;
  if (max < 1000) return (v) => `${v.toFixed(decimals(step))}ms`;
  return (v) => `${(v / 1000).toFixed(decimals(step / 1000))}s`;
}

function renderWaterfall(id: string): void {
  const rows = waterfall(spans);
  const box = $('waterfall');
  if (!rows.length) return void box.replaceChildren();
  const t0 = Math.min(...spans.map((s) => s.startMs));
  const total = Math.max(1e-3, Math.max(...spans.map((s) => s.startMs + s.durationMs)) - t0);
  if (zoomed?.id !== id) zoomed = { id, t: zoomIdentity };
  const head = el('div', 'wf-head');
  const reset = el('button', 'wf-reset', 'reset zoom') as HTMLButtonElement;
  reset.dataset.testid = 'waterfall-reset';
  head.append(el('span', 'wf-title', `trace ${id} · ${spanCount(spans.length)} · ${ms(total)}`), reset, el('span', 'wf-hint', 'wheel: zoom · drag: pan'));
  const svgNs = 'http://www.w3.org/2000/svg';
  const axisSvg = document.createElementNS(svgNs, 'svg');
  axisSvg.classList.add('wf-axis');
  const axisG = document.createElementNS(svgNs, 'g');
  axisSvg.append(axisG);
  const list = el('div', 'wf-rows');
  const plot = el('div', 'wf-plot');
  const placed: { span: StoredSpan; bar: HTMLElement; dur: HTMLElement }[] = [];
  for (const { span: s, depth } of rows) {
    const row = el('div', `wf-row${s.spanId === pickedSpan ? ' picked' : ''}${s.status === 'ERROR' ? ' error' : ''}`);
    row.dataset.testid = 'waterfall-span';
    row.dataset.name = s.name;
    row.dataset.service = s.service;
    const label = el('div', 'wf-label');
    label.style.paddingLeft = `${6 + depth * 14}px`;
    const svc = el('span', 'wf-service', s.service);
    svc.style.background = colour(s.service);
    label.append(svc, el('span', 'wf-name', s.name));
    label.title = `${s.service} ${s.name}`;
    const track = el('div', 'wf-track');
    const bar = el('div', 'wf-bar');
    bar.style.background = colour(s.service);
    const dur = el('span', 'wf-dur', ms(s.durationMs));
    track.append(bar, dur);
    row.append(label, track);
    row.addEventListener('click', () => {
      pickedSpan = s.spanId;
      for (const r of list.children) r.classList.toggle('picked', r === row);
      box.lastElementChild?.replaceWith(spanDetail(s, t0));
    });
    list.append(row);
    placed.push({ span: s, bar, dur });
  }
  plot.append(axisSvg, list);
  box.replaceChildren(head, plot, spanDetail(spans.find((s) => s.spanId === pickedSpan) ?? rows[0]!.span, t0));

  // The scale's range is in the plot's own pixels (where d3-zoom reads the pointer): the track starts `off` px in.
  const off = list.querySelector('.wf-track')!.getBoundingClientRect().left - plot.getBoundingClientRect().left;
  const width = Math.max(100, plot.clientWidth - off);
  const x = scaleLinear()
    .domain([0, total])
    .range([off, off + width]);
  const draw = (t: ZoomTransform) => {
    const zx = t.rescaleX(x);
    for (const { span: s, bar, dur } of placed) {
      const a = zx(s.startMs - t0) - off;
      const b = zx(s.startMs - t0 + s.durationMs) - off;
      bar.style.left = `${a}px`;
      bar.style.width = `${Math.max(2, b - a)}px`;
      // The duration after the bar; where the track ends first, before it; where neither fits, on the bar.
      const after = b + 64 <= width;
      const before = !after && a >= 64;
      dur.style.left = after ? `${b + 4}px` : before ? '' : `${Math.max(a, 0) + 4}px`;
      dur.style.right = before ? `${width - a + 4}px` : '';
      dur.classList.toggle('on-bar', !after && !before);
      dur.style.visibility = b < 0 || a > width ? 'hidden' : ''; // zoomed away from this span
    }
    const ticks = zx.ticks(Math.max(2, Math.floor(width / 90)));
    const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : total;
    const label = tickFormat(step, Math.max(...ticks.map(Math.abs)));
    axisG.setAttribute('transform', 'translate(0,19)');
    select(axisG).call(
      axisTop(zx)
        .tickValues(ticks)
        .tickFormat((v) => label(+v))
        .tickSizeOuter(0),
    );
    reset.disabled = t.k === 1 && t.x === 0;
  };
  const extent: [[number, number], [number, number]] = [
    [off, 0],
    [off + width, list.clientHeight],
  ];
  const zoomer = zoom<HTMLElement, unknown>()
    .scaleExtent([1, Math.max(1, total * 10_000)]) // down to a tenth of a µs across the track
    .extent(extent)
    .translateExtent(extent)
    .clickDistance(4)
    .on('zoom', (e: D3ZoomEvent<HTMLElement, unknown>) => {
      zoomed = { id, t: e.transform };
      draw(e.transform);
    });
  const plotSel = select(plot).call(zoomer).on('dblclick.zoom', null);
  zoomer.transform(plotSel, zoomed.t);
  draw(zoomed.t);
  reset.addEventListener('click', () => zoomer.transform(plotSel, zoomIdentity));
}

function spanDetail(s: StoredSpan, t0: number): HTMLElement {
  const box = el('div', 'wf-detail');
  box.dataset.testid = 'span-detail';
  box.append(el('h3', '', `${s.service} · ${s.name}`));
  const table = el('table');
  const rows: [string, string][] = [
    ['kind', s.kind],
    ['status', s.status + (s.statusMessage ? `: ${s.statusMessage}` : '')],
    ['start', `+${ms(s.startMs - t0)}`],
    ['duration', ms(s.durationMs)],
    ['span id', s.spanId],
    ['parent', s.parentSpanId ?? '(root)'],
    ...(s.node ? ([['node', s.node]] as [string, string][]) : []),
    ...Object.entries(s.attributes).sort(([a], [b]) => a.localeCompare(b)),
    ...s.events.map((e) => ['event', `${e.name} at +${ms(e.atMs - t0)}`] as [string, string]),
  ];
  for (const [k, v] of rows) {
    const tr = el('tr');
    tr.append(el('th', '', k), el('td', '', v));
    table.append(tr);
  }
  box.append(table);
  return box;
}

/** The pod story's links to the traces its messages carry, where the dashboard holds them (the most spans first). */
export function storyTraceLinks(pod: string, messages: readonly FlowMessage[]): void {
  lastStory = { pod, messages };
  const ids = new Set<string>();
  for (const m of messages) if (m.traceId && (m.objectKind ?? 'Pod') === 'Pod' && objectKey(m) === pod) ids.add(m.traceId);
  // Ask the server which of them it holds: once per change of the pod's trace ids or of the traces received (pushed), never on a timer.
  const query = [...ids].slice(-100).join(',');
  const key = `${query} ${summaries[0]?.traceId ?? ''} ${summaries[0]?.spanCount ?? 0} ${summaries.length}`;
  if (key === storyQuery) return;
  storyQuery = key;
  if (!query) return void drawStoryLinks([]);
  void fetch(`api/traces?ids=${query}`)
    .then((r) => (r.ok ? (r.json() as Promise<{ items: TraceSummary[] }>) : { items: [] }))
    .then((r) => {
      for (const s of r.items) known.set(s.traceId, s);
      drawStoryLinks(r.items);
    })
    .catch(() => {});
}
let storyQuery = '';

function drawStoryLinks(items: TraceSummary[]): void {
  const box = $('story-trace');
  const top = [...items].sort((a, b) => b.spanCount - a.spanCount || a.startMs - b.startMs).slice(0, 3);
  const signature = top.map((s) => `${s.traceId}:${s.spanCount}`).join(' ');
  if (box.dataset.signature === signature) return;
  box.dataset.signature = signature;
  box.replaceChildren(
    ...top.map((s) => {
      const a = el('a', 'trace-link', `trace ${s.traceId.slice(0, 8)}… (${spanCount(s.spanCount)}, ${ms(s.durationMs)})`);
      a.dataset.testid = 'story-trace-link';
      a.dataset.traceId = s.traceId;
      (a as HTMLAnchorElement).href = `#trace=${s.traceId}`;
      a.addEventListener('click', (e) => {
        e.preventDefault();
        showTrace(s.traceId);
      });
      return a;
    }),
  );
}

document.querySelector('nav button[data-view=traces]')?.addEventListener('click', () => requestAnimationFrame(renderList));
let resizing = 0;
window.addEventListener('resize', () => {
  cancelAnimationFrame(resizing);
  resizing = requestAnimationFrame(() => {
    if (shown && spans.length && visible()) renderWaterfall(shown.id);
  });
});
$('traces-relist').addEventListener('change', renderList);
const deepLink = /^#trace=([0-9a-f]{32})$/.exec(location.hash);
if (deepLink) requestAnimationFrame(() => showTrace(deepLink[1]!));

/** `1 span`, `4 spans`. */
function spanCount(n: number): string {
  return `${n} span${n === 1 ? '' : 's'}`;
}
