// A client whose scenarios run as a separate program (Python, Go, Java). The program is called as
//   <command...> <scenario> <bootstrap> <name-prefix>
// and answers with its exit status: 0 is pass, unless a stdout line reads "SKIP: <reason>"; any other status is a
// fail whose reason is the last lines it wrote to stderr. Names it creates start with <name-prefix>.
import { describeFailure, runCommand } from '../lib/command.js';
import { pass, skip, type ClientSuite, type Scenario, type ScenarioName } from './types.js';

export interface ExternalClientOptions {
  name: string;
  /** Idempotent install script (absolute path). */
  installScript: string;
  /** The program and its leading arguments, e.g. [venvPython, 'scenarios.py']. Resolved after install. */
  command: () => string[];
  scenarios: readonly ScenarioName[];
}

export function externalClient(options: ExternalClientOptions): ClientSuite {
  const scenario =
    (name: ScenarioName): Scenario =>
    async (context) => {
      const [program, ...leading] = options.command();
      if (program === undefined) throw new Error(`${options.name}: no command`);
      const result = await runCommand(program, [...leading, name, context.target.bootstrap, context.name('')], {
        timeoutMs: 180_000,
      });
      if (result.code !== 0) throw new Error(describeFailure(`${options.name} ${name}`, result));
      const skipped = result.stdout.split('\n').find((line) => line.startsWith('SKIP: '));
      return skipped === undefined ? pass : skip(skipped.slice('SKIP: '.length));
    };
  return {
    name: options.name,
    install: async () => {
      const result = await runCommand(options.installScript, [], { timeoutMs: 900_000 });
      if (result.code !== 0) throw new Error(describeFailure(options.installScript, result));
    },
    scenarios: Object.fromEntries(options.scenarios.map((name) => [name, scenario(name)])),
  };
}
