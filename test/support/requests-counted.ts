/** The v2proxy_requests_total series of a metrics page whose labels include all of `labels`, summed. */
export function requestsCounted(metrics: string, labels: Record<string, string>): number {
  let sum = 0;
  for (const line of metrics.split('\n')) {
    const m = /^v2proxy_requests_total\{([^}]*)\} (\d+)$/.exec(line);
    if (!m) continue;
    const have = Object.fromEntries([...(m[1] as string).matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[2]);
  }
  return sum;
}
