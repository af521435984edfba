// Every client the compat runner knows, in matrix order.
import { join } from 'node:path';
import { cacheDir, compatDir, referenceDir } from '../lib/paths.js';
import { externalClient } from '../runner/external.js';
import { SCENARIOS, SECURITY_ONLY_SCENARIOS, type ClientSuite } from '../runner/types.js';
import { javaTools } from './java-tools/scenarios.js';
import { kafkajs } from './kafkajs/scenarios.js';
import { kcat } from './kcat/scenarios.js';
import { newestVersionsOf } from './newest-versions.js';

const venvPython = join(cacheDir, 'py', 'venv', 'bin', 'python');
/** The scenarios every external program has (auth-failure: security runs only); newest-versions and cluster-admin are added where written. */
const COMMON = [...SCENARIOS.filter((name) => name !== 'newest-versions' && name !== 'cluster-admin'), ...SECURITY_ONLY_SCENARIOS];
const kafkaLibs = join(cacheDir, `kafka-${process.env.KAFKA_VERSION ?? '4.3.1'}`, 'libs');

const javaClient = externalClient({
  name: 'java-client',
  installScript: join(compatDir, 'clients', 'java-client', 'install.sh'),
  command: () => [
    process.env.JAVA ?? 'java',
    `-Dlog4j2.configurationFile=${join(referenceDir, 'log4j2-tools.xml')}`,
    '-cp',
    `${join(cacheDir, 'java-client', 'classes')}:${kafkaLibs}/*`,
    'Scenarios',
  ],
  scenarios: [...COMMON, 'newest-versions'],
  newestVersions: newestVersionsOf('java-client'),
});

const confluentKafka = externalClient({
  name: 'confluent-kafka',
  installScript: join(compatDir, 'clients', 'python', 'install.sh'),
  command: () => [venvPython, join(compatDir, 'clients', 'confluent-kafka', 'scenarios.py')],
  scenarios: [...COMMON, 'newest-versions'],
  newestVersions: newestVersionsOf('confluent-kafka'),
});

const kafkaPython = externalClient({
  name: 'kafka-python',
  installScript: join(compatDir, 'clients', 'python', 'install.sh'),
  command: () => [venvPython, join(compatDir, 'clients', 'kafka-python', 'scenarios.py')],
  scenarios: [...COMMON, 'newest-versions'],
  newestVersions: newestVersionsOf('kafka-python'),
});

const franzGo = externalClient({
  name: 'franz-go',
  installScript: join(compatDir, 'clients', 'franz-go', 'install.sh'),
  command: () => [join(cacheDir, 'go', 'bin', 'franz-go-compat')],
  scenarios: [...COMMON, 'newest-versions'],
  newestVersions: newestVersionsOf('franz-go'),
});

const sarama = externalClient({
  name: 'sarama',
  installScript: join(compatDir, 'clients', 'sarama', 'install.sh'),
  command: () => [join(cacheDir, 'go', 'bin', 'sarama-compat')],
  scenarios: [...COMMON, 'newest-versions'],
  newestVersions: newestVersionsOf('sarama'),
});

const platformatic = externalClient({
  name: 'platformatic',
  installScript: join(compatDir, 'clients', 'node', 'install.sh'),
  command: () => [process.execPath, join(compatDir, 'clients', 'node', 'platformatic.mjs')],
  scenarios: [...COMMON, 'newest-versions'],
  cannot: {
    'consumer-static-members': 'its consumer-protocol leave is always epoch -1 (a static member that closes leaves for good) ' +
      'and its admin has no ConsumerGroupDescribe to watch a killed static member wait',
  },
  newestVersions: newestVersionsOf('platformatic'),
});

export const CLIENTS: readonly ClientSuite[] = [kafkajs, platformatic, javaClient, javaTools, kcat, confluentKafka, kafkaPython, franzGo, sarama];
