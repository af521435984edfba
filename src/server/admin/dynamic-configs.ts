/**
 * Configs changed at run time, kept per broker (in memory, as gregor has no metadata log):
 * dynamic broker configs of this node, cluster-wide dynamic defaults, and logger levels.
 */
import type { DynamicConfigLayers } from '../../config/index.js';
import type { BrokerState } from '../handler.js';

export interface DynamicConfigs extends DynamicConfigLayers {
  /** BROKER resource named by this node's id. */
  readonly perBroker: Map<string, string>;
  /** BROKER resource with the empty name: defaults for every broker. */
  readonly clusterDefault: Map<string, string>;
  /** BROKER_LOGGER levels set with IncrementalAlterConfigs. */
  readonly loggers: Map<string, string>;
}

const byBroker = new WeakMap<BrokerState, DynamicConfigs>();

export function dynamicConfigs(broker: BrokerState): DynamicConfigs {
  let configs = byBroker.get(broker);
  if (configs === undefined) {
    configs = {
      perBroker: new Map(),
      // A KRaft controller (Kafka 4.x, eligible leader replicas) writes the static min.insync.replicas
      // as a cluster-wide dynamic default when the cluster is formed; DescribeConfigs shows it so.
      clusterDefault: new Map([['min.insync.replicas', String(broker.config['min.insync.replicas'])]]),
      loggers: new Map(),
    };
    byBroker.set(broker, configs);
  }
  return configs;
}
