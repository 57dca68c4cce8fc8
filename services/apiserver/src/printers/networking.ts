// Rows of NetworkPolicies (upstream printNetworkPolicy: the pods selected, as metav1.FormatLabelSelector writes them),
// Ingresses (printIngress) and IngressClasses (printIngressClass).

import { since } from './duration.js';
import { selectorString } from './labels.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';

export const networkPolicyPrinter: Printer = {
  columns: [NAME_COLUMN, col('Pod-Selector', 'string', 'Selects the pods to which this NetworkPolicy object applies.'), AGE_COLUMN],
  cells(np, now) {
    // An empty selector selects every pod of the namespace; FormatLabelSelector prints it as <none>.
    return [np.metadata?.name, selectorString(np.spec?.podSelector) || '<none>', since(np.metadata?.creationTimestamp, now)];
  },
};

/** formatHosts: the first three hosts of the rules, `*` when none names one. */
function ingressHosts(rules: Obj[] | undefined): string {
  const max = 3;
  const list = (rules ?? [])
    .slice(0, max)
    .map((r) => r.host as string | undefined)
    .filter((h): h is string => !!h);
  if (list.length === 0) return '*';
  const more = (rules ?? []).length > max;
  return more ? `${list.join(',')} + ${(rules ?? []).length - max} more...` : list.join(',');
}

export const ingressPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    col('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    col('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    col('Ports', 'string', 'Ports of TLS configurations that open'),
    AGE_COLUMN,
  ],
  cells(ing, now) {
    // The load balancer's IPs, else its host names, sorted and without repeats (ingressLoadBalancerStatusStringer, wide).
    const addresses = [...new Set(((ing.status?.loadBalancer?.ingress as Obj[] | undefined) ?? []).map((a) => a.ip || a.hostname).filter(Boolean))].sort();
    return [
      ing.metadata?.name,
      ing.spec?.ingressClassName ?? '<none>',
      ingressHosts(ing.spec?.rules),
      addresses.join(','),
      ing.spec?.tls?.length ? '80, 443' : '80',
      since(ing.metadata?.creationTimestamp, now),
    ];
  },
};

export const ingressClassPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Controller', 'string', 'Controller that is responsible for handling this class'),
    col('Parameters', 'string', 'A reference to a resource with additional parameters'),
    AGE_COLUMN,
  ],
  cells(cls, now) {
    const p = cls.spec?.parameters as Obj | undefined;
    const parameters = p ? `${p.kind}${p.apiGroup !== undefined && p.apiGroup !== null ? `.${p.apiGroup}` : ''}/${p.name}` : '<none>';
    return [cls.metadata?.name, cls.spec?.controller ?? '', parameters, since(cls.metadata?.creationTimestamp, now)];
  },
};
