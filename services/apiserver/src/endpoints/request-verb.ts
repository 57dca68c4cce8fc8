// The verb a subresource request is counted under (upstream: the verb each
// route is installed with in endpoints/installer.go): CONNECT for the
// streaming and proxy subresources whatever the method, else the method's
// verb, APPLY for a server-side apply patch.

/** Subresources installed as connecters upstream (rest.Connecter: exec, attach, portforward, proxy). */
const CONNECT_SUBRESOURCES = new Set(['exec', 'attach', 'portforward', 'proxy']);

const METHOD_VERBS: Record<string, string> = { GET: 'GET', HEAD: 'GET', POST: 'POST', PUT: 'PUT', PATCH: 'PATCH', DELETE: 'DELETE' };

export function subresourceVerb(subresource: string, method: string, contentType: string | undefined): string {
  if (CONNECT_SUBRESOURCES.has(subresource)) return 'CONNECT';
  if (method === 'PATCH' && contentType?.split(';')[0]?.trim() === 'application/apply-patch+yaml') return 'APPLY';
  return METHOD_VERBS[method] ?? method;
}
