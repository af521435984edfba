// The compat runner: every client × scenario against gregor (default) or Apache Kafka (--reference).
//   npm run compat [-- --reference] [--client kafkajs,kcat] [--scenario metadata] [--list]
// Prints the matrix and a closing "N passed, N failed, N skipped" line; exits 1 if anything failed.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { CLIENTS } from './clients/index.js';
import { formatMatrix, tally, type Result } from './runner/matrix.js';
import { startGregorTarget, startReferenceTarget } from './runner/targets.js';
import { SCENARIOS, type Outcome, type ScenarioContext, type Target } from './runner/types.js';

function listOption(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((value) => value.split(',')).map((value) => value.trim()).filter(Boolean);
}

async function outcomeOf(work: () => Promise<Outcome>): Promise<Outcome> {
  try {
    return await work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'fail', reason: message.replace(/\s+/g, ' ').slice(0, 400) };
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      reference: { type: 'boolean', default: false },
      client: { type: 'string', multiple: true },
      scenario: { type: 'string', multiple: true },
      list: { type: 'boolean', default: false },
    },
  });
  const wantedClients = listOption(values.client);
  const wantedScenarios = listOption(values.scenario);
  for (const name of wantedClients) {
    if (!CLIENTS.some((client) => client.name === name)) throw new Error(`unknown client ${name}; known: ${CLIENTS.map((c) => c.name).join(', ')}`);
  }
  for (const name of wantedScenarios) {
    if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`unknown scenario ${name}; known: ${SCENARIOS.join(', ')}`);
  }
  const clients = CLIENTS.filter((client) => wantedClients.length === 0 || wantedClients.includes(client.name));
  const scenarios = SCENARIOS.filter((scenario) => wantedScenarios.length === 0 || wantedScenarios.includes(scenario));
  if (values.list) {
    for (const client of clients) console.log(`${client.name}: ${scenarios.filter((s) => client.scenarios[s]).join(', ')}`);
    return 0;
  }

  const kind = values.reference ? 'reference' : 'gregor';
  const runId = randomBytes(3).toString('hex');
  const results: Result[] = [];
  let target: Target | undefined;
  let targetFailure: string | undefined;
  try {
    target = values.reference ? await startReferenceTarget() : await startGregorTarget();
    console.error(`compat: ${kind} broker at ${target.bootstrap}`);
  } catch (error) {
    targetFailure = `${kind} broker did not start: ${(error as Error).message}`;
    console.error(`compat: ${targetFailure}`);
  }

  try {
    for (const client of clients) {
      // A broker that did not start or a client that did not install fails each of that client's cells.
      let blocked = targetFailure;
      if (blocked === undefined) {
        try {
          await client.install();
        } catch (error) {
          blocked = `install failed: ${(error as Error).message}`;
        }
      }
      for (const scenarioName of scenarios) {
        const scenario = client.scenarios[scenarioName];
        let outcome: Outcome;
        if (blocked !== undefined || target === undefined) outcome = { status: 'fail', reason: blocked ?? 'no broker' };
        else if (scenario === undefined) outcome = { status: 'skip', reason: 'not written for this client yet' };
        else {
          const context: ScenarioContext = {
            target,
            name: (suffix) => `compat-${client.name}-${scenarioName}-${runId}-${suffix}`,
          };
          console.error(`compat: ${client.name} / ${scenarioName} ...`);
          outcome = await outcomeOf(() => scenario(context));
        }
        console.error(`compat: ${client.name} / ${scenarioName}: ${outcome.status}${outcome.status === 'pass' ? '' : `: ${outcome.reason}`}`);
        results.push({ client: client.name, scenario: scenarioName, outcome });
      }
    }
  } finally {
    await target?.stop();
  }

  console.log(formatMatrix(results, `compat matrix against ${kind === 'reference' ? 'Apache Kafka (reference)' : 'gregor'}`));
  return tally(results).failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`compat: ${(error as Error).message}`);
    process.exit(2);
  },
);
