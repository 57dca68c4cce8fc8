// Rows of FlowSchemas and PriorityLevelConfigurations (upstream printFlowSchema, printPriorityLevelConfiguration).

import { since } from './duration.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Printer } from './table.js';

export const flowSchemaPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('PriorityLevel', 'string', 'The priority level the matched requests go to.'),
    col('MatchingPrecedence', 'string', 'The order of matching: the lowest matching value wins.'),
    col('DistinguisherMethod', 'string', 'How the matched requests split into flows.'),
    AGE_COLUMN,
    col('MissingPL', 'string', 'Whether the named priority level does not exist (the Dangling condition).'),
  ],
  cells(fs, now) {
    const dangling = (fs.status?.conditions as { type?: string; status?: string }[] | undefined)?.find((c) => c.type === 'Dangling');
    return [
      fs.metadata?.name,
      fs.spec?.priorityLevelConfiguration?.name ?? '',
      fs.spec?.matchingPrecedence ?? 0,
      fs.spec?.distinguisherMethod?.type ?? '<none>',
      since(fs.metadata?.creationTimestamp, now),
      dangling?.status ?? '?',
    ];
  },
  // In the order requests are matched: precedence, then name (upstream's FlowSchemaSequence).
  compare(a, b) {
    const p = (a.spec?.matchingPrecedence ?? 0) - (b.spec?.matchingPrecedence ?? 0);
    const [x, y] = [String(a.metadata?.name ?? ''), String(b.metadata?.name ?? '')];
    return p || (x < y ? -1 : x > y ? 1 : 0);
  },
};

export const priorityLevelConfigurationPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Type', 'string', 'Exempt or Limited.'),
    col('NominalConcurrencyShares', 'string', "The level's share of the server's concurrency limit."),
    col('Queues', 'string', 'The number of queues.'),
    col('HandSize', 'string', 'How many queues a flow is dealt.'),
    col('QueueLengthLimit', 'string', 'The most requests a queue holds.'),
    AGE_COLUMN,
  ],
  cells(pl, now) {
    const limited = pl.spec?.limited;
    const q = limited?.limitResponse?.queuing;
    const none = '<none>';
    return [
      pl.metadata?.name,
      pl.spec?.type ?? '',
      limited ? (limited.nominalConcurrencyShares ?? 0) : none,
      q ? (q.queues ?? 0) : none,
      q ? (q.handSize ?? 0) : none,
      q ? (q.queueLengthLimit ?? 0) : none,
      since(pl.metadata?.creationTimestamp, now),
    ];
  },
};
