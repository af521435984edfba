// The stock tools in a security run: bin/kafka-run-class gives each its --command-config (COMPAT_TOOL_CONFIG), so
// the scenarios run unchanged; auth-failure is kafka-topics --list refused, with the exception the tool names.
import { toolFails } from '../../lib/tools.js';
import { pass, type Scenario } from '../../runner/types.js';

export const authFailure: Scenario = async (context) => {
  const result = await toolFails('kafka-topics', ['--bootstrap-server', context.target.bootstrap, '--list']);
  const output = `${result.stderr}\n${result.stdout}`;
  // The tool prints the admin client's exception: its class, and for SASL the broker's message after it.
  const named = /(org\.apache\.kafka\.common\.errors\.\w+): ?([^\n]*)/.exec(output);
  if (named === null) throw new Error(`kafka-topics named no Kafka exception: ${output.trim().split('\n').slice(-3).join(' | ')}`);
  context.observe('error', named[1]);
  if (named[1]!.endsWith('SaslAuthenticationException')) context.observe('message', named[2]);
  return pass;
};
