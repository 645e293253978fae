/**
 * The example Grafana dashboard and Prometheus alert rules (ops/) speak of metrics that exist: every
 * `identity_*` name they use is one the registry exports (histograms through their _bucket, _sum and
 * _count series), every alert has the fields Prometheus requires, and the files parse.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { metrics } from '@/lib/observability';

const HISTOGRAM_SERIES = /_(bucket|sum|count)$/;

async function exported(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const metric of await metrics().registry.getMetricsAsJSON()) names.add(metric.name);
  return names;
}

function namesIn(text: string): string[] {
  return [...new Set([...text.matchAll(/\bidentity_[a-z_]+\b/g)].map((m) => m[0].replace(HISTOGRAM_SERIES, '')))];
}

describe('ops/prometheus/alerts.yml', () => {
  const rules = parse(readFileSync('ops/prometheus/alerts.yml', 'utf8')) as { groups: { name: string; rules: Record<string, unknown>[] }[] };

  it('has named alerts with an expression, a severity and a summary', () => {
    const all = rules.groups.flatMap((group) => group.rules);
    expect(all.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining(['IdentityServiceNotReady', 'IdentityServiceHighErrorRate', 'IdentityWebhookQueueBehind']),
    );
    for (const rule of all) {
      expect(typeof rule.expr).toBe('string');
      expect((rule.labels as { severity?: string }).severity).toMatch(/^(page|ticket)$/);
      expect((rule.annotations as { summary?: string }).summary).toBeTruthy();
    }
  });

  it('uses only exported metric names', async () => {
    const names = await exported();
    const used = namesIn(JSON.stringify(rules));
    expect(used.length).toBeGreaterThan(4);
    for (const name of used) expect(names, name).toContain(name);
  });
});

describe('ops/grafana/identity-service.json', () => {
  const dashboard = JSON.parse(readFileSync('ops/grafana/identity-service.json', 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };

  it('charts every exported identity metric, and nothing that is not exported', async () => {
    const names = await exported();
    const used = namesIn(JSON.stringify(dashboard));
    for (const name of used) expect(names, name).toContain(name);
    const ours = [...names].filter((name) => name.startsWith('identity_'));
    for (const name of ours) expect(used, `${name} is not on the dashboard`).toContain(name);
  });
});
