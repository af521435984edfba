/**
 * The cluster overview: the brokers and their listeners (in cluster mode every live one, from the cluster's
 * metadata; else this one node, the controller), this broker's version,
 * features, uptime, and throughput now. Throughput is the change of the logs' summed high watermarks and sizes
 * between two looks, so nothing is counted on the produce path: the rate is over the time since the last look
 * (at least MIN_RATE_WINDOW_MS apart, so a page polling every second sees a steady number).
 */
import type { BrokerState } from '../../server/handler.js';
import { controllerIdOf } from '../../server/cluster-view.js';

const MIN_RATE_WINDOW_MS = 1_000;

interface Totals {
  readonly at: number;
  readonly messages: number;
  readonly bytes: number;
}

export interface Throughput {
  readonly messagesPerSec: number;
  readonly bytesPerSec: number;
}

/** Keeps the last two looks at the logs' totals. */
export class ThroughputSampler {
  private previous: Totals | undefined;
  private latest: Totals | undefined;
  private rate: Throughput = { messagesPerSec: 0, bytesPerSec: 0 };

  sample(broker: BrokerState, now: number): Throughput {
    if (this.latest !== undefined && now - this.latest.at < MIN_RATE_WINDOW_MS) return this.rate;
    const totals = totalsOf(broker, now);
    this.previous = this.latest;
    this.latest = totals;
    if (this.previous !== undefined) {
      const seconds = (totals.at - this.previous.at) / 1000;
      // Retention and DeleteRecords shrink the totals: a fall is no negative throughput.
      this.rate = {
        messagesPerSec: Math.max(0, (totals.messages - this.previous.messages) / seconds),
        bytesPerSec: Math.max(0, (totals.bytes - this.previous.bytes) / seconds),
      };
    }
    return this.rate;
  }
}

function totalsOf(broker: BrokerState, now: number): Totals {
  let messages = 0;
  let bytes = 0;
  for (const topic of broker.store.topics()) {
    for (let p = 0; p < topic.partitions; p++) {
      const log = broker.store.log(topic.name, p);
      if (log === undefined) continue;
      messages += log.highWatermark;
      bytes += log.sizeInBytes();
    }
  }
  return { at: now, messages, bytes };
}

export interface Overview {
  readonly clusterId: string;
  readonly controllerId: number;
  readonly brokers: readonly { readonly nodeId: number; readonly host: string; readonly port: number; readonly listener: string }[];
  readonly version: string;
  readonly uptimeMs: number;
  readonly features: readonly { readonly name: string; readonly level: number; readonly minVersion: number; readonly maxVersion: number }[];
  readonly topics: number;
  readonly partitions: number;
  readonly sizeBytes: number;
  readonly throughput: Throughput;
}

export function overview(broker: BrokerState, version: string, uptimeMs: number, throughput: Throughput): Overview {
  let partitions = 0;
  let sizeBytes = 0;
  const topics = broker.store.topics();
  for (const topic of topics) {
    partitions += topic.partitions;
    for (let p = 0; p < topic.partitions; p++) sizeBytes += broker.store.log(topic.name, p)?.sizeInBytes() ?? 0;
  }
  return {
    clusterId: broker.clusterId,
    controllerId: controllerIdOf(broker),
    brokers: broker.cluster === undefined
      ? [...broker.advertised].map(([listener, endpoint]) => ({ nodeId: broker.nodeId, host: endpoint.host, port: endpoint.port, listener }))
      : [...broker.cluster.liveBrokers()].sort((a, b) => a.nodeId - b.nodeId)
        .flatMap((b) => [...b.endpoints].map(([listener, endpoint]) => ({ nodeId: b.nodeId, host: endpoint.host, port: endpoint.port, listener }))),
    version,
    uptimeMs,
    features: broker.features.supported().map((f) => ({ name: f.name, level: broker.features.level(f.name), minVersion: f.minVersion, maxVersion: f.maxVersion })),
    topics: topics.length,
    partitions,
    sizeBytes,
    throughput,
  };
}
