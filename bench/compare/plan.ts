// What one `npm run bench` measures, and how big: the full plan (issue 7's sizes) and the --quick plan (same
// workloads, small sizes, a reduced produce matrix) that finishes in a few minutes.
import type { ProduceCase } from './clients.js';

export interface Plan {
  quick: boolean;
  /** Repetitions; each starts both brokers afresh. */
  runs: number;
  produceCases: ProduceCase[];
  /** Payload bytes written by each produce case (10^6). */
  produceMB: number;
  /** Payload bytes the fetch test reads back (10^6). */
  fetchMB: number;
  latencySeconds: number;
  /** Records/s for the latency test when Kafka's maximum was not measured first (see run.ts). */
  latencyFallbackRate: number;
  latencyMaxRate: number;
  idleConnections: number;
  producerConnections: number;
  requestsPerProducerConnection: number;
  metadataPartitions: number;
  /** Data on disk before the restart timings (10^9 bytes). */
  restartDataGB: number;
  /** Group commits before each "restart after N group commits" timing, cumulative (one OffsetCommit each). */
  restartGroupCommits: number[];
  /** Seconds a fresh broker sits idle before its RSS is read. */
  idleSettleSeconds: number;
}

function matrix(): ProduceCase[] {
  const cases: ProduceCase[] = [];
  for (const recordSize of [1024, 100])
    for (const acks of ['1', 'all'] as const)
      for (const compression of ['none', 'lz4'] as const)
        for (const partitions of [1, 8]) cases.push({ recordSize, acks, compression, partitions });
  return cases;
}

export function fullPlan(runs = 3): Plan {
  return {
    quick: false,
    runs,
    produceCases: matrix(),
    produceMB: 500,
    fetchMB: 1000,
    latencySeconds: 30,
    latencyFallbackRate: 20_000,
    latencyMaxRate: 100_000,
    idleConnections: 1000,
    producerConnections: 1000,
    requestsPerProducerConnection: 20,
    metadataPartitions: 10_000,
    restartDataGB: 5,
    restartGroupCommits: [16_000, 160_000],
    idleSettleSeconds: 10,
  };
}

export function quickPlan(runs = 1): Plan {
  return {
    quick: true,
    runs,
    produceCases: [
      { recordSize: 1024, acks: '1', compression: 'none', partitions: 1 },
      { recordSize: 100, acks: '1', compression: 'none', partitions: 1 },
      { recordSize: 1024, acks: 'all', compression: 'lz4', partitions: 8 },
      { recordSize: 100, acks: 'all', compression: 'lz4', partitions: 8 },
    ],
    produceMB: 30,
    fetchMB: 100,
    latencySeconds: 8,
    latencyFallbackRate: 5_000,
    latencyMaxRate: 20_000,
    idleConnections: 1000,
    producerConnections: 1000,
    requestsPerProducerConnection: 3,
    metadataPartitions: 1000,
    restartDataGB: 0.3,
    restartGroupCommits: [16_000, 160_000],
    idleSettleSeconds: 3,
  };
}

export function caseLabel(c: ProduceCase): string {
  return `${c.recordSize === 1024 ? '1 KiB' : `${c.recordSize} B`} acks=${c.acks} ${c.compression} ${c.partitions}p`;
}
