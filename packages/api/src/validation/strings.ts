// String-format checks with upstream's messages (k8s.io/apimachinery/pkg/util/validation).
// Each returns the list of problems; empty means valid.

import { parseIpv4 } from '../net/ipv4.js';

export const maxLenError = (length: number): string => `must be no more than ${length} characters`;
export const emptyError = (): string => 'must be non-empty';
export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

/** RegexError: message, examples (note upstream's double space after each comma) and the regex. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) out += ' or ';
    out += `'${ex}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

const anchored = (fmt: string): RegExp => new RegExp(`^(?:${fmt})$`);

/** A length limit then a format, the two checks most of these make (each failure one message). */
function lengthAndFormat(value: string, maxLength: number, re: RegExp, errMsg: string, fmt: string, ...examples: string[]): string[] {
  const errs: string[] = [];
  if (value.length > maxLength) errs.push(maxLenError(maxLength));
  if (!re.test(value)) errs.push(regexError(errMsg, fmt, ...examples));
  return errs;
}

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNameRe = anchored(qualifiedNameFmt);
export const QUALIFIED_NAME_MAX_LENGTH = 63;

/** IsQualifiedName: `[prefix/]name`, as label keys and annotation keys. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] as string;
  } else if (parts.length === 2) {
    const prefix = parts[0] as string;
    name = parts[1] as string;
    if (prefix.length === 0) errs.push(`prefix part ${emptyError()}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [`a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (name.length > QUALIFIED_NAME_MAX_LENGTH) errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`);
  if (!qualifiedNameRe.test(name)) {
    errs.push(`name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueRe = anchored(labelValueFmt);
export const LABEL_VALUE_MAX_LENGTH = 63;

/** IsValidLabelValue. */
export function isValidLabelValue(value: string): string[] {
  return lengthAndFormat(value, LABEL_VALUE_MAX_LENGTH, labelValueRe, labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345');
}

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123LabelRe = anchored(dns1123LabelFmt);
export const DNS1123_LABEL_MAX_LENGTH = 63;

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1123SubdomainRe = anchored(dns1123SubdomainFmt);
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

/** IsDNS1123Label (namespace names, container names, port names' siblings). */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!dns1123LabelRe.test(value)) {
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

/** IsDNS1123Subdomain (most object names). */
export function isDNS1123Subdomain(value: string): string[] {
  return lengthAndFormat(value, DNS1123_SUBDOMAIN_MAX_LENGTH, dns1123SubdomainRe, dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com');
}

const wildcardDNS1123SubdomainFmt = `\\*\\.${dns1123SubdomainFmt}`;
const wildcardDNS1123SubdomainErrMsg =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const wildcardDNS1123SubdomainRe = anchored(wildcardDNS1123SubdomainFmt);

/** IsWildcardDNS1123Subdomain (`*.example.com`: Ingress hosts). */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  return lengthAndFormat(value, DNS1123_SUBDOMAIN_MAX_LENGTH, wildcardDNS1123SubdomainRe, wildcardDNS1123SubdomainErrMsg, wildcardDNS1123SubdomainFmt, '*.example.com');
}

const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRe = anchored(httpPathFmt);

/** IsDomainPrefixedPath (`acme.io/foo`: an IngressClass's controller): the problems as [value, message] pairs, the value being the part at fault. */
export function isDomainPrefixedPath(value: string): [string, string][] {
  const slash = value.indexOf('/');
  const host = slash < 0 ? '' : value.slice(0, slash);
  const path = slash < 0 ? '' : value.slice(slash + 1);
  if (!host || !path) return [[value, 'must be a domain-prefixed path (such as "acme.io/foo")']];
  const errs: [string, string][] = isDNS1123Subdomain(host).map((m) => [host, m]);
  if (!httpPathRe.test(path)) errs.push([path, regexError('Invalid path', httpPathFmt)]);
  return errs;
}

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const dns1035LabelRe = anchored(dns1035LabelFmt);
export const DNS1035_LABEL_MAX_LENGTH = 63;

/** IsDNS1035Label (service names). */
export function isDNS1035Label(value: string): string[] {
  return lengthAndFormat(value, DNS1035_LABEL_MAX_LENGTH, dns1035LabelRe, dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123');
}

/** IsValidPortNum: 1..65535. */
export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** IsInRange. */
export function isInRange(value: number, min: number, max: number): string[] {
  return value >= min && value <= max ? [] : [inclusiveRangeError(min, max)];
}

/** IsValidPortName: IANA_SVC_NAME, at most 15 characters. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** IsRelaxedEnvVarName (RelaxedEnvironmentVariableValidation, on by default since 1.32). */
export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push(`environment variable name ${emptyError()}`);
  for (const ch of value) {
    const c = ch.codePointAt(0) as number;
    if (c > 0x7e || c < 0x20 || ch === '=') {
      errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return errs;
}

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const configMapKeyRe = anchored(configMapKeyFmt);

/** IsConfigMapKey: data keys of ConfigMaps and Secrets. */
export function isConfigMapKey(value: string): string[] {
  const errs = lengthAndFormat(value, DNS1123_SUBDOMAIN_MAX_LENGTH, configMapKeyRe, configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name');
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** IsValidIP (IPv4 dotted quad or IPv6), message as upstream's IsValidIP. */
export function isValidIP(value: string): string[] {
  return isIPv4(value) || isIPv6(value) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

export function isIPv4(value: string): boolean {
  return parseIpv4(value) !== undefined;
}

export function isIPv6(value: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(value) || !value.includes(':')) return false;
  const halves = value.split('::');
  if (halves.length > 2) return false;
  const groups = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const all = halves.flatMap(groups);
  let count = 0;
  for (let i = 0; i < all.length; i++) {
    const g = all[i] as string;
    if (i === all.length - 1 && g.includes('.')) {
      if (!isIPv4(g)) return false;
      count += 2;
    } else if (/^[0-9a-fA-F]{1,4}$/.test(g)) count += 1;
    else return false;
  }
  return halves.length === 2 ? count < 8 : count === 8;
}
