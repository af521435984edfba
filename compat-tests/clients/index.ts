// Every client the compat runner knows, in matrix order.
import type { ClientSuite } from '../runner/types.js';
import { javaTools } from './java-tools/scenarios.js';
import { kafkajs } from './kafkajs/scenarios.js';
import { kcat } from './kcat/scenarios.js';

export const CLIENTS: readonly ClientSuite[] = [kafkajs, kcat, javaTools];
