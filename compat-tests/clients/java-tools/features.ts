// Feature flags and the KRaft quorum as a single-node user sees them: kafka-features, kafka-metadata-quorum and
// kafka-cluster. Observed: the tools' output with what depends on the run (epochs, offsets, times, the cluster id,
// the quorum endpoint) blanked, so the differential compares the rest with Kafka's.
import assert from 'node:assert/strict';
import { tool, toolFails } from '../../lib/tools.js';
import { pass, type Outcome, type ScenarioContext } from '../../runner/types.js';

const bootstrapArgs = (context: ScenarioContext): string[] => ['--bootstrap-server', context.target.bootstrap];

/** A refused tool run's first line of output (the tools print the error there, stdout or stderr). */
function firstLine(result: { stdout: string; stderr: string }): string {
  return `${result.stdout}${result.stderr}`.trim().split('\n')[0] ?? '';
}

export async function featuresQuorum(context: ScenarioContext): Promise<Outcome> {
  const features = (...args: string[]) => tool('kafka-features', [...bootstrapArgs(context), ...args]);
  const described = await features('describe');
  context.observe('describe', described.trim().split('\n').map((line) => line.replace(/Epoch: \d+$/, 'Epoch: <epoch>')));
  // The same level again changes nothing and succeeds; a level past the top, a downgrade across a metadata change and
  // an unknown feature are refused with the controller's messages.
  assert.equal(await features('upgrade', '--feature', 'metadata.version=30'), 'metadata.version was upgraded to 30.\n');
  const refused = (...args: string[]) => toolFails('kafka-features', [...bootstrapArgs(context), ...args]).then(firstLine);
  context.observe('upgrade-past-top', await refused('upgrade', '--feature', 'metadata.version=31'));
  context.observe('downgrade-metadata', await refused('downgrade', '--feature', 'metadata.version=29'));
  context.observe('unsafe-downgrade-metadata', await refused('downgrade', '--unsafe', '--feature', 'metadata.version=29'));
  context.observe('upgrade-unknown', await refused('upgrade', '--feature', 'foo.bar=1'));
  context.observe('downgrade-elr-dry-run', await features('downgrade', '--feature', 'eligible.leader.replicas.version=0', '--dry-run'));

  const status = await tool('kafka-metadata-quorum', [...bootstrapArgs(context), 'describe', '--status']);
  context.observe('quorum-status', status.trim().split('\n').map((line) => line
    .replace(/^(ClusterId|HighWatermark):(\s+).*$/, '$1:$2<value>')
    .replace(/"endpoints": \[[^\]]*\]/, '"endpoints": [<endpoint>]')));
  const replication = await tool('kafka-metadata-quorum', [...bootstrapArgs(context), 'describe', '--replication']);
  context.observe('quorum-replication', replication.trim().split('\n').map((line) => line.split('\t').map((cell) => cell.trim()))
    .map(([node, directory, , lag, , , status]) => [node, directory, lag, status]));
  context.observe('remove-controller', firstLine(await toolFails('kafka-metadata-quorum',
    [...bootstrapArgs(context), 'remove-controller', '--controller-id', '1', '--controller-directory-id', 'AAAAAAAAAAAAAAAAAAAAAQ'])));
  const unregister = await toolFails('kafka-cluster', ['unregister', ...bootstrapArgs(context), '--id', '5']);
  context.observe('unregister-other', /BrokerIdNotRegisteredException: .*/.exec(unregister.stderr)?.[0]);
  return pass;
}
