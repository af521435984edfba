// cluster-admin: what Kafka 4.3's operator tools show of a single-broker cluster: kafka-broker-api-versions,
// kafka-features, kafka-metadata-quorum, group configs and client quotas through kafka-configs, and kafka-transactions
// after a transactional run. Every call goes through the recording proxy, so the versions the tools used are checked
// too. Values that differ by nature (ids, epochs, offsets, times, this run's names) are normalised out of what is
// observed; everything else is compared with Kafka's in the differential mode.
import assert from 'node:assert/strict';
import { excuseFeaturesNotServed, excuseNotServed, featuresNotServedYet } from '../../lib/not-served.js';
import { tool, toolFails } from '../../lib/tools.js';
import { pass, type Outcome, type ScenarioContext } from '../../runner/types.js';
import { newestVersions } from '../../runner/versions.js';
import { newestVersionsOf } from '../newest-versions.js';

/** kafka-broker-api-versions: API name → "min to max [usable: n]" (or UNSUPPORTED); the broker's line is left out. */
export function apiVersionRows(output: string): Record<string, string> {
  const rows: Record<string, string> = {};
  for (const match of output.matchAll(/^\s+(\w+)\(\d+\): (.+?),?$/gm)) rows[match[1]!] = match[2]!;
  return rows;
}

/** kafka-features describe: feature → its fields but the epoch (it counts metadata changes). */
export function featureRows(output: string): Record<string, string> {
  const rows: Record<string, string> = {};
  for (const line of output.split('\n')) {
    const fields = [...line.matchAll(/(\w+): (\S+)/g)].map((m) => [m[1]!, m[2]!] as const);
    const name = fields.find(([field]) => field === 'Feature')?.[1];
    if (name === undefined) continue;
    rows[name] = fields.filter(([field]) => field !== 'Feature' && field !== 'Epoch').map(([field, value]) => `${field}: ${value}`).join(', ');
  }
  return rows;
}

/** metadata.version's release names as kafka-features describe prints them → the level an upgrade names. */
const METADATA_VERSION_LEVELS: Readonly<Record<string, string>> = { '4.3-IV0': '30' };

/** A voter or observer of kafka-metadata-quorum's status with its directory id and address normalised. */
function normaliseNode(node: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...node };
  if ('directoryId' in copy) copy['directoryId'] = '<directory id>';
  if (Array.isArray(copy['endpoints'])) {
    // The listener's name too: Kafka's voters are reached on its controller listener, gregor has none of its own.
    copy['endpoints'] = copy['endpoints'].map(() => '<listener>://<host>:<port>');
  }
  return copy;
}

/**
 * kafka-metadata-quorum describe --status: field → value, with the cluster id, epochs, offsets and addresses
 * normalised (LeaderId, the voters' ids, lags and the field names stay).
 */
export function quorumStatus(output: string): Record<string, unknown> {
  const normalised: Record<string, string> = { ClusterId: '<cluster id>', LeaderEpoch: '<epoch>', HighWatermark: '<offset>' };
  const status: Record<string, unknown> = {};
  for (const match of output.matchAll(/^(\w+):\s+(.*)$/gm)) {
    const [, field, value] = match as unknown as [string, string, string];
    if (normalised[field] !== undefined) status[field] = normalised[field];
    else if (value.startsWith('[')) status[field] = (JSON.parse(value) as Record<string, unknown>[]).map(normaliseNode);
    else status[field] = value;
  }
  return status;
}

/** A tab-separated table (kafka-metadata-quorum --replication, kafka-transactions): header → value per row. */
export function tableRows(output: string): Record<string, string>[] {
  const [header, ...rows] = output.split('\n').filter((line) => line.trim() !== '').map((line) => line.split('\t').map((cell) => cell.trim()));
  if (header === undefined) return [];
  return rows.map((row) => Object.fromEntries(header.flatMap((name, i) => (name === '' ? [] : [[name, row[i] ?? '']]))));
}

/** Replaces the named fields' values with a placeholder in each row. */
function without(rows: Record<string, string>[], placeholders: Record<string, string>): Record<string, string>[] {
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([name, value]) => [name, placeholders[name] ?? value])));
}

/** kafka-configs --describe: one entity's heading and its indented config lines, its name replaced. */
export function entityBlock(output: string, name: string, placeholder: string): string[] {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => !line.startsWith(' ') && (line.includes(` ${name} `) || line.includes(`'${name}'`)));
  if (start < 0) return [];
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('  '));
  return lines.slice(start, end < 0 ? undefined : end).map((line) => line.split(name).join(placeholder).trimEnd());
}

/** The "Caused by" of a failed tool: the Kafka exception's simple name and message. */
function causeOf(output: string): string {
  const match = /Caused by: [\w.]*\.(\w+): (.*)$/m.exec(output) ?? /^(\w+(?:Exception|Error)): (.*)$/m.exec(output);
  return match === null ? `no cause: ${output.trim().split('\n')[0] ?? ''}` : `${match[1]}: ${match[2]}`;
}

/** The scenario's independent parts: each runs even when an earlier one failed, so a run shows every failure. */
function clusterAdminSteps(context: ScenarioContext, bootstrap: string): Record<string, () => Promise<void>> {
  const server = ['--bootstrap-server', bootstrap];
  const observeRows = (prefix: string, rows: Record<string, unknown>): void => {
    for (const [key, value] of Object.entries(rows)) context.observe(`${prefix}${key}`, value);
  };
  return {
    // Every API but those the README lists as not served at Kafka's range yet is compared.
    'api-versions': async () => {
      const versions = apiVersionRows(await tool('kafka-broker-api-versions', server));
      assert.ok(Object.keys(versions).length > 70, 'kafka-broker-api-versions lists every API the tool knows');
      observeRows('api-versions.', versions);
      excuseNotServed((key, reason) => context.excuse(key, reason), 'api-versions.');
    },
    // What is finalized and supported (the epoch counts metadata changes), and what dry-run upgrades say.
    features: async () => {
      const features = featureRows(await tool('kafka-features', [...server, 'describe']));
      assert.ok(features['metadata.version'] !== undefined, 'metadata.version is described');
      observeRows('features.', features);
      // A dry-run upgrade to each described level, one line per feature ("<feature> can be upgraded to <level>.").
      // Features gregor does not support yet are left out (an update naming one fails for all, as on Kafka), and
      // kraft.version too: gregor refuses level 1, a dynamic quorum it does not have (README). So the features asked
      // follow the README: when a feature's row goes, record Kafka's answer again (--reference --record).
      const notServed = featuresNotServedYet();
      const levels = Object.entries(features).flatMap(([name, row]) => {
        const level = /FinalizedVersionLevel: (\S+)/.exec(row)?.[1];
        if (notServed.has(name) || name === 'kraft.version' || level === undefined) return [];
        return ['--feature', `${name}=${name === 'metadata.version' ? METADATA_VERSION_LEVELS[level] ?? level : level}`];
      });
      const upgrade = await tool('kafka-features', [...server, 'upgrade', ...levels, '--dry-run']);
      for (const line of upgrade.trim().split('\n')) context.observe(`features-upgrade-dry-run.${line.split(' ')[0]}`, line);
      excuseFeaturesNotServed((key, reason) => context.excuse(key, reason), 'features.');
      const tooHigh = await toolFails('kafka-features', [...server, 'upgrade', '--feature', 'transaction.version=3', '--dry-run']);
      context.observe('features-upgrade-too-high', `${tooHigh.stdout}${tooHigh.stderr}`.trim().split('\n')[0]);
    },
    // One voter, the broker itself, leading.
    quorum: async () => {
      const status = quorumStatus(await tool('kafka-metadata-quorum', [...server, 'describe', '--status']));
      context.observe('quorum-status', status);
      assert.equal(status['LeaderId'], '1', 'the broker leads the quorum');
      const replication = tableRows(await tool('kafka-metadata-quorum', [...server, 'describe', '--replication']));
      context.observe('quorum-replication', without(replication, {
        DirectoryId: '<directory id>', LogEndOffset: '<offset>', LastFetchTimestamp: '<time>', LastCaughtUpTimestamp: '<time>',
      }));
    },
    // ConfigResource type GROUP: set two, list every group with configs, describe all of one, a name Kafka refuses.
    'group-configs': async () => {
      const group = context.name('group');
      const groups = (...args: string[]): Promise<string> => tool('kafka-configs', [...server, '--entity-type', 'groups', ...args]);
      const altered = await groups('--entity-name', group, '--alter', '--add-config', 'consumer.session.timeout.ms=50000,consumer.heartbeat.interval.ms=6000');
      context.observe('group-alter', altered.trim().split(group).join('<group>'));
      const listed = entityBlock(await groups('--describe'), group, '<group>');
      context.observe('group-describe-dynamic', listed);
      assert.equal(listed.length, 3, `the group's two dynamic configs are listed: ${listed.join(' | ')}`);
      context.observe('group-describe-all', entityBlock(await groups('--entity-name', group, '--describe', '--all'), group, '<group>'));
      const unknown = await toolFails('kafka-configs', [...server, '--entity-type', 'groups', '--entity-name', group, '--alter', '--add-config', 'no.such.config=1']);
      context.observe('group-alter-unknown', causeOf(`${unknown.stderr}\n${unknown.stdout}`));
    },
    // Set two for a client id, then list every client's quotas.
    'client-quotas': async () => {
      const client = context.name('client');
      const clients = (...args: string[]): Promise<string> => tool('kafka-configs', [...server, '--entity-type', 'clients', ...args]);
      const altered = await clients('--entity-name', client, '--alter', '--add-config', 'producer_byte_rate=1024,consumer_byte_rate=2048');
      context.observe('quota-alter', altered.trim().split(client).join('<client>'));
      const quotas = entityBlock(await clients('--describe'), client, '<client>');
      context.observe('quota-describe', quotas);
      assert.deepEqual(quotas, ["Quota configs for client-id '<client>' are consumer_byte_rate=2048.0, producer_byte_rate=1024.0"]);
    },
    // A transactional run of one transaction, then the coordinator's view through kafka-transactions.
    transactions: async () => {
      const topic = context.name('topic');
      const transactionalId = context.name('txn');
      await tool('kafka-topics', [...server, '--create', '--topic', topic, '--partitions', '1']);
      await tool('kafka-producer-perf-test', [...server, '--topic', topic, '--num-records', '10', '--record-size', '10', '--throughput', '-1',
        '--transactional-id', transactionalId, '--transaction-duration-ms', '600000']);
      const listed = tableRows(await tool('kafka-transactions', [...server, 'list', '--transactional-id-pattern', `${transactionalId}.*`]));
      const described = tableRows(await tool('kafka-transactions', [...server, 'describe', '--transactional-id', transactionalId]));
      const names = { TransactionalId: '<transactional id>', ProducerId: '<producer id>' };
      context.observe('transactions-list', without(listed, names));
      // With transaction.version 2 the commit bumps the producer epoch (to 1 after one transaction).
      context.observe('transactions-describe', without(described, { ...names, CurrentTransactionStartTimeMs: '<time>', TransactionDurationMs: '<duration>' }));
      assert.equal(described[0]?.['TransactionState'], 'CompleteCommit');
    },
  };
}

async function clusterAdminWork(context: ScenarioContext, bootstrap: string): Promise<Outcome> {
  const failures: string[] = [];
  for (const [name, step] of Object.entries(clusterAdminSteps(context, bootstrap))) {
    try {
      await step();
    } catch (error) {
      // The runner keeps 400 characters of a reason: a failed tool's name and its last line say enough per step.
      const message = (error as Error).message.split('\n')[0] ?? '';
      const tool = /^(kafka-[\w-]+) /.exec(message)?.[1];
      const said = message.replace(/^.*?: exit \S+: /, '').split(' | ').pop();
      failures.push(`${name}: ${tool === undefined ? message : `${tool}: ${said}`}`.slice(0, 160));
    }
  }
  if (failures.length > 0) throw new Error(failures.join('; '));
  return pass;
}

export function clusterAdmin(context: ScenarioContext): Promise<Outcome> {
  return newestVersions(context, newestVersionsOf('java-tools'), (bootstrap) => clusterAdminWork(context, bootstrap));
}
