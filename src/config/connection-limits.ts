// max.connections.per.ip.overrides as Kafka reads it (KafkaConfig.getMap, Csv.parseCsvMap): entries split at
// commas (spaces around them dropped), each split at its last ':' into a host and a count, so an IPv6 host
// keeps its own colons ("::1:5"). Kafka checks the hosts' characters at start-up and refuses
// max.connections.per.ip=0 without overrides.
import { ConfigError } from './config-types.js';

const KEY = 'max.connections.per.ip.overrides';
/** Kafka's Utils.validHostPattern. */
const VALID_HOST = /^[0-9a-zA-Z\-%._:]*$/;

/** host → most connections from it. Throws ConfigError on an entry that does not parse. */
export function parseMaxConnectionsPerIpOverrides(value: string): Map<string, number> {
  const overrides = new Map<string, number>();
  if (value === '') return overrides;
  for (const entry of value.split(/\s*,\s*/)) {
    const colon = entry.lastIndexOf(':');
    const host = entry.slice(0, Math.max(colon, 0)).trim();
    const count = entry.slice(colon + 1).trim();
    if (colon < 0 || !/^[+-]?\d+$/.test(count) || !Number.isSafeInteger(Number(count)) || Math.abs(Number(count)) > 2 ** 31 - 1) {
      throw new ConfigError(KEY, `Error parsing configuration property '${KEY}': ${JSON.stringify(entry)} is not host:count`);
    }
    overrides.set(host, Number(count));
  }
  const invalid = [...overrides.keys()].filter((host) => !VALID_HOST.test(host));
  if (invalid.length > 0) throw new ConfigError(KEY, `${KEY} contains invalid addresses : ${invalid.join(',')}`);
  return overrides;
}

/** Kafka's start-up checks of the connection limits (also run on every dynamic change, as the config is rebuilt). */
export function checkConnectionLimits(values: Record<string, unknown>): void {
  const overrides = parseMaxConnectionsPerIpOverrides(values[KEY] as string);
  if (values['max.connections.per.ip'] === 0 && overrides.size === 0) {
    throw new ConfigError('max.connections.per.ip', `max.connections.per.ip can be set to zero only if ${KEY} property is set.`);
  }
}
