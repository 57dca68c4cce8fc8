// List filters as upstream applies them: every set field must match (AND),
// label selectors are exact matchLabels, IDs may be given as unique prefixes.

export function matchLabels(labels: Record<string, string>, selector: Record<string, string> | undefined | null): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector)) if (labels[k] !== v) return false;
  return true;
}

/** containerd resolves IDs by unique prefix (truncindex); an exact ID always matches. */
export function matchId(id: string, wanted: string | undefined | null): boolean {
  return !wanted || id === wanted || id.startsWith(wanted);
}
