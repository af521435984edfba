// The APIs gregor does not serve at Kafka 4.3.1's range yet: the README section "What gregor does not serve yet"
// is the one list (test/server/handlers/api-versions.test.ts reads it too). Scenarios excuse these APIs'
// differences from Kafka in the differential mode, so the comparison covers everything else and grows as rows go.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

export interface NotServed {
  /** Kafka's API name as the README writes it, e.g. "DescribeQuorum". */
  name: string;
  apiKey: number;
  /** The issue that brings it to Kafka's range, e.g. "#15". */
  issue: string;
}

function notServedSection(readme: string): string {
  const section = readme.split('\n## What gregor does not serve yet\n')[1]?.split('\n## ')[0];
  if (section === undefined) throw new Error('README.md has no section "What gregor does not serve yet"');
  return section;
}

export function notServedYet(readme = readFileSync(join(repoRoot, 'README.md'), 'utf8')): NotServed[] {
  const section = notServedSection(readme);
  return [...section.matchAll(/^\| (\w+) \((\d+)\) \|[^\n]*\| (#\d+) \|$/gm)].map((m) => ({ name: m[1]!, apiKey: Number(m[2]), issue: m[3]! }));
}

/** Excuses `<prefix><ApiName>` for every API the README lists (see ScenarioContext.excuse). */
export function excuseNotServed(excuse: (key: string, reason: string) => void, prefix: string): void {
  for (const api of notServedYet()) excuse(`${prefix}${api.name}`, `README: gregor does not serve ${api.name} (${api.apiKey}) at Kafka's range yet (${api.issue})`);
}

/** The features the README's feature table shows gregor without ("–"): feature name → the issue that brings it. */
export function featuresNotServedYet(readme = readFileSync(join(repoRoot, 'README.md'), 'utf8')): Map<string, string> {
  const rows = notServedSection(readme).matchAll(/^\| ([a-z.]+\.version) \| – \|[^\n]*?(#\d+) \|$/gm);
  return new Map([...rows].map((m) => [m[1]!, m[2]!]));
}

/** Excuses `<prefix><feature>` for every feature the README shows gregor without. */
export function excuseFeaturesNotServed(excuse: (key: string, reason: string) => void, prefix: string): void {
  for (const [feature, issue] of featuresNotServedYet()) excuse(`${prefix}${feature}`, `README: gregor does not support ${feature} yet (${issue})`);
}
