// A kafkajs group member in a child process, so a test can SIGKILL it (a crash: no LeaveGroup).
// Usage: node crash-consumer.js <port> <group> <topic> <sessionTimeoutMs>; prints "assigned [..]" lines.
import { kafkaFor, TrackedConsumer } from './kafkajs-group-helpers.js';

const [port, groupId, topic, sessionTimeout] = process.argv.slice(2);
const tracked = new TrackedConsumer(kafkaFor(Number(port), 'crashing'), {
  groupId: groupId!,
  sessionTimeout: Number(sessionTimeout),
  heartbeatInterval: 200,
});
tracked.consumer.on(tracked.consumer.events.GROUP_JOIN, () => {
  process.stdout.write(`assigned ${JSON.stringify(tracked.assignment)}\n`);
});
await tracked.start(topic!);
