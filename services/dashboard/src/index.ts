export { FlowBuffer, matches, podStory, storyPods, RELIST_METHODS, type FlowFilter, type FlowKind, type FlowMessage, type PodStory } from './flow.js';
export { Live, type MapState, type NodeView, type PodView } from './live.js';
export { criMessage, apiMessage, eventMessage } from './records.js';
export { startDashboardServer, type RunningDashboard } from './server.js';
export { dashboardFlags, DEFAULT_PORT } from './options.js';
export { DecisionStore, decisionHeadline, decisionMessage, filterTable, scoreTable, type FilterTable, type ScoreTable } from './sched-view.js';
