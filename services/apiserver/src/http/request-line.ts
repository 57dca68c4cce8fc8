// Decisions about a request made before any filter reads it, as Go's
// net/http server and the apiserver's handler chain make them; pure.

/** An invalid `%` escape in the path (`%zz`, a trailing `%`): Go's url.ParseRequestURI refuses the request line. */
export function hasInvalidPathEscape(requestUrl: string): boolean {
  const q = requestUrl.indexOf('?');
  const path = q < 0 ? requestUrl : requestUrl.slice(0, q);
  return /%(?![0-9a-fA-F]{2})/.test(path);
}

/** The health and metrics endpoints, answered even while the apiserver is not ready (upstream: they sit outside the API handlers). */
export function isProbePath(requestUrl: string): boolean {
  const q = requestUrl.indexOf('?');
  const path = q < 0 ? requestUrl : requestUrl.slice(0, q);
  return /^\/(livez|readyz|healthz|metrics)(\/|$)/.test(path);
}
