// A client whose scenarios run as a separate program (Python, Go, Java). The program is called as
//   <command...> <scenario> <bootstrap> <name-prefix>
// with COMPAT_BIN_DIR naming the stock Kafka tools (compat-tests/bin), and answers with its exit status: 0 is pass,
// unless a stdout line reads "SKIP: <reason>"; any other status is a fail whose reason is the last lines it wrote to
// stderr. Names it creates start with <name-prefix>. A stdout line "OBSERVE <key> <json>" records a deterministic
// result for the differential mode.
// broker-restart runs in two calls, "broker-restart-before" and "broker-restart-after", with the same prefix; the
// runner restarts the broker in between, so what the second call finds survived both the client and the broker.
// newest-versions is called with the bootstrap of a recording proxy (runner/versions.ts), which checks the versions.
import { describeFailure, runCommand } from '../lib/command.js';
import { binDir } from '../lib/paths.js';
import { pass, skip, type ClientSuite, type Outcome, type Scenario, type ScenarioContext, type ScenarioName } from './types.js';
import { newestVersions, type ExpectedVersions } from './versions.js';

export interface ExternalClientOptions {
  name: string;
  /** Idempotent install script (absolute path). */
  installScript: string;
  /** The program and its leading arguments, e.g. [venvPython, 'scenarios.py']. Resolved after install. */
  command: () => string[];
  scenarios: readonly ScenarioName[];
  /** Scenarios the client cannot express, with the reason. */
  cannot?: Partial<Record<ScenarioName, string>>;
  /** For newest-versions: the versions the client must use against Kafka 4.3.1 (clients/newest-versions.ts). */
  newestVersions?: ExpectedVersions;
}

const OBSERVE = /^OBSERVE (\S+) (.+)$/;

async function call(options: ExternalClientOptions, phase: string, context: ScenarioContext, bootstrap = context.target.bootstrap): Promise<Outcome> {
  const [program, ...leading] = options.command();
  if (program === undefined) throw new Error(`${options.name}: no command`);
  const result = await runCommand(program, [...leading, phase, bootstrap, context.name('')], {
    timeoutMs: 180_000,
    env: { ...process.env, COMPAT_BIN_DIR: binDir },
  });
  const lines = result.stdout.split('\n');
  for (const line of lines) {
    const match = OBSERVE.exec(line);
    if (match !== null) context.observe(match[1]!, JSON.parse(match[2]!));
  }
  if (result.code !== 0) throw new Error(describeFailure(`${options.name} ${phase}`, result));
  const skipped = lines.find((line) => line.startsWith('SKIP: '));
  return skipped === undefined ? pass : skip(skipped.slice('SKIP: '.length));
}

export function externalClient(options: ExternalClientOptions): ClientSuite {
  const scenario =
    (name: ScenarioName): Scenario =>
    async (context) => {
      if (name === 'newest-versions') {
        const expected = options.newestVersions;
        if (expected === undefined) throw new Error(`${options.name}: newest-versions needs the versions it must use`);
        return newestVersions(context, expected, (bootstrap) => call(options, name, context, bootstrap));
      }
      if (name !== 'broker-restart') return call(options, name, context);
      const before = await call(options, 'broker-restart-before', context);
      if (before.status !== 'pass') return before;
      await context.target.restart();
      return call(options, 'broker-restart-after', context);
    };
  return {
    name: options.name,
    install: async () => {
      const result = await runCommand(options.installScript, [], { timeoutMs: 900_000 });
      if (result.code !== 0) throw new Error(describeFailure(options.installScript, result));
    },
    scenarios: Object.fromEntries(options.scenarios.map((name) => [name, scenario(name)])),
    ...(options.cannot === undefined ? {} : { cannot: options.cannot }),
  };
}
