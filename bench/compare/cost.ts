// A broker's own cost over one piece of work, measured from outside through /proc, so that gregor (node) and Kafka
// (the JVM) are measured alike: CPU-seconds per GB, peak RSS over just that work, and for gregor the V8 collections.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { cpuSeconds, peakRssBytes, resetPeakRss, rssBytes } from './proc.js';

export interface GcCounts {
  scavenges: number;
  markCompacts: number;
}

/** Counts the collections --trace-gc printed into a log file so far. */
export function gcCountsIn(logText: string): GcCounts {
  let scavenges = 0;
  let markCompacts = 0;
  for (const line of logText.split('\n')) {
    if (/ ms: Scavenge\b/.test(line)) scavenges++;
    else if (/ ms: Mark-(Compact|Sweep)\b/i.test(line)) markCompacts++;
  }
  return { scavenges, markCompacts };
}

export interface BrokerCost {
  cpuSecondsPerGB: number;
  /** VmHWM over the case (from the RSS at its start when the kernel allows the reset, else since start-up), MB. */
  peakRssMB: number;
  peakRssSinceStart: boolean;
  /** RSS when the case began (what VmHWM was reset to), MB. */
  startRssMB: number;
  seconds: number;
  gc?: GcCounts;
}

/**
 * Runs `body` (which moves `bytes` of payload through the broker) and returns what the broker process spent on it.
 * `gcLog`, when given, is the file where the broker's --trace-gc lines go.
 */
export async function measureBrokerCost(pid: number, bytes: number, body: () => Promise<void>, gcLog?: string): Promise<BrokerCost> {
  const reset = resetPeakRss(pid);
  const startRss = rssBytes(pid);
  const gc0 = gcLog === undefined ? undefined : gcCountsIn(readFileSync(gcLog, 'utf8'));
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  await body();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(pid) - cpu0;
  const peak = peakRssBytes(pid);
  const cost: BrokerCost = { cpuSecondsPerGB: cpu / (bytes / 1e9), peakRssMB: peak / 1e6, peakRssSinceStart: !reset, startRssMB: startRss / 1e6, seconds };
  if (gcLog !== undefined && gc0 !== undefined) {
    const gc1 = gcCountsIn(readFileSync(gcLog, 'utf8'));
    cost.gc = { scavenges: gc1.scavenges - gc0.scavenges, markCompacts: gc1.markCompacts - gc0.markCompacts };
  }
  return cost;
}
