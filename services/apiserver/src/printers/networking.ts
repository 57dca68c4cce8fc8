// Rows of NetworkPolicies (upstream printNetworkPolicy): the pods selected, as metav1.FormatLabelSelector writes them.

import { since } from './duration.js';
import { selectorString } from './labels.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Printer } from './table.js';

export const networkPolicyPrinter: Printer = {
  columns: [NAME_COLUMN, col('Pod-Selector', 'string', 'Selects the pods to which this NetworkPolicy object applies.'), AGE_COLUMN],
  cells(np, now) {
    // An empty selector selects every pod of the namespace; FormatLabelSelector prints it as <none>.
    return [np.metadata?.name, selectorString(np.spec?.podSelector) || '<none>', since(np.metadata?.creationTimestamp, now)];
  },
};
