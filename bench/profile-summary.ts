// Sums a V8 .cpuprofile (node --cpu-prof) by function or by file: where the time went, as text for BENCHMARKS.md.
//   node dist/bench/profile-summary.js <file.cpuprofile> [--by function|file|package] [--top N]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export type Grouping = 'function' | 'file' | 'package';

function groupKey(frame: ProfileNode['callFrame'], by: Grouping): string {
  const url = frame.url.replace(/^file:\/\//, '');
  if (by === 'function') return `${frame.functionName || '(anonymous)'} ${url ? `${url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}` : ''}`.trim();
  if (by === 'file') return url || frame.functionName || '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg !== null) return pkg[1]!;
  if (url.includes('/dist/src/')) return `gregor ${url.slice(url.indexOf('/dist/src/') + 10).split('/').slice(0, -1).join('/') || '.'}`;
  if (url.startsWith('node:')) return 'node internals';
  return frame.functionName.startsWith('(') ? frame.functionName : url || '(native)';
}

/** Self time (ms) per group, highest first. */
export function selfTimes(profile: CpuProfile, by: Grouping): { key: string; ms: number; share: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = (profile.timeDeltas[i] ?? 0) / 1000;
    if (node === undefined) return;
    const key = groupKey(node.callFrame, by);
    totals.set(key, (totals.get(key) ?? 0) + delta);
    all += delta;
  });
  return [...totals.entries()].map(([key, ms]) => ({ key, ms, share: all > 0 ? ms / all : 0 })).sort((a, b) => b.ms - a.ms);
}

function main(): void {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { by: { type: 'string', default: 'function' }, top: { type: 'string', default: '25' } } });
  const file = positionals[0];
  const by = values.by as Grouping;
  if (file === undefined || !['function', 'file', 'package'].includes(by)) {
    process.stderr.write('usage: profile-summary <file.cpuprofile> [--by function|file|package] [--top N]\n');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const rows = selfTimes(profile, by);
  process.stdout.write(`${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms profiled; self time by ${by}:\n`);
  for (const row of rows.slice(0, Number(values.top))) process.stdout.write(`${row.ms.toFixed(1).padStart(9)} ms ${(row.share * 100).toFixed(1).padStart(5)}%  ${row.key}\n`);
}

if (process.argv[1]?.endsWith('profile-summary.js')) main();
