// The KIP-848 consumer group protocol's scenarios (group.protocol=consumer) for the Java client; Scenarios.java
// dispatches to them and lends its helpers. The broker's group.consumer.* settings (runner/consumer-protocol.ts) give
// members a 6 s session and 500 ms heartbeats: the client cannot set either under this protocol.
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

final class ConsumerProtocol {
    private ConsumerProtocol() { }

    /** A consumer-protocol member's settings; instance is its group.instance.id (null: a dynamic member). */
    static Map<String, Object> memberConfig(String instance) {
        Map<String, Object> config = new TreeMap<>(Map.of("group.protocol", "consumer"));
        if (instance != null && !instance.equals("dynamic")) config.put("group.instance.id", instance);
        return config;
    }

    static ConsumerGroupDescription describe(Admin admin, String group) {
        try {
            return admin.describeConsumerGroups(List.of(group)).all().get().get(group);
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /** The group epoch at a scenario's first step (one scenario per process). */
    static Integer baseEpoch;

    /** Scenarios.settle, and the group's epochs once settled (each join, leave and expiry bumps the group epoch). */
    static void settle(Admin admin, String group, String step, List<Scenarios.Member> live, List<Integer> sizes, int total,
            Map<String, Object> steps) throws InterruptedException {
        Scenarios.settle(admin, group, step, live, sizes, total, steps);
        ConsumerGroupDescription described = describe(admin, group);
        // Epochs counted from the first step's: how soon the first heartbeat follows the topic's creation decides
        // whether Kafka's coordinator already sees the topic (one bump more or less).
        if (baseEpoch == null) baseEpoch = described.groupEpoch().orElseThrow();
        int base = baseEpoch;
        Map<String, Object> row = new TreeMap<>((Map<String, Object>) steps.get(step));
        row.put("groupEpochSinceFirst", described.groupEpoch().orElseThrow() - base);
        row.put("targetAssignmentEpochSinceFirst", described.targetAssignmentEpoch().orElseThrow() - base);
        row.put("memberEpochsSinceFirst", described.members().stream().map(m -> m.memberEpoch().orElseThrow() - base).sorted().toList());
        steps.put(step, row);
    }

    static Process memberProcess(String group, String topic, String instance) throws Exception {
        return new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
            "Scenarios", "member", Scenarios.bootstrap, group, topic, instance).inheritIO().start();
    }

    /** group-rebalance under the consumer protocol: 6 / 3+3 / 2+2+2, a clean leave (3+3), a SIGKILLed member (2+2+2, then 3+3). */
    static void groupRebalance() throws Exception {
        String topic = Scenarios.prefix + "topic";
        String group = Scenarios.prefix + "group";
        Scenarios.createTopic(topic, 6);
        Map<String, Object> steps = new LinkedHashMap<>();
        List<Scenarios.Member> members = new ArrayList<>();
        Process crasher = null;
        try (Admin admin = Scenarios.admin()) {
            Scenarios.Member a = new Scenarios.Member(group, topic, memberConfig(null));
            members.add(a);
            settle(admin, group, "one", List.of(a), List.of(6), 1, steps);
            Scenarios.Member b = new Scenarios.Member(group, topic, memberConfig(null));
            members.add(b);
            settle(admin, group, "two", List.of(a, b), List.of(3, 3), 2, steps);
            Scenarios.Member c = new Scenarios.Member(group, topic, memberConfig(null));
            members.add(c);
            settle(admin, group, "three", List.of(a, b, c), List.of(2, 2, 2), 3, steps);
            c.stop();
            settle(admin, group, "after-leave", List.of(a, b), List.of(3, 3), 2, steps);
            // A member in a JVM of its own, killed: no leave heartbeat, the coordinator notices when its session expires.
            crasher = memberProcess(group, topic, "dynamic");
            settle(admin, group, "rejoin", List.of(a, b), List.of(2, 2), 3, steps);
            crasher.destroyForcibly();
            settle(admin, group, "after-crash", List.of(a, b), List.of(3, 3), 2, steps);
            Scenarios.observe("steps", steps);
        } finally {
            if (crasher != null) crasher.destroyForcibly();
            for (Scenarios.Member m : members) m.stop();
        }
    }

    /** commit-resume under the consumer protocol: OffsetCommit carries the member's epoch; a new member resumes at 5. */
    static void commitResume() throws Exception {
        String topic = Scenarios.prefix + "topic";
        String group = Scenarios.prefix + "group";
        Scenarios.createTopic(topic, 1);
        Scenarios.produceNumbered(topic, 0, 10);
        try (Admin admin = Scenarios.admin()) {
            Scenarios.observe("committed-before", Scenarios.committed(admin, group, topic));
            try (KafkaConsumer<byte[], byte[]> consumer = Scenarios.consumer(group, memberConfig(null))) {
                consumer.subscribe(List.of(topic));
                Scenarios.pollUntil(consumer, Scenarios.reaches(4), r -> {
                    if (r.offset() == 4) consumer.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(5)));
                });
            }
            Scenarios.same(5L, Scenarios.committed(admin, group, topic), "committed offset");
            // The member left: the group is Empty, its offsets kept.
            Scenarios.observe("after-leave", Map.of("state", describe(admin, group).groupState().toString(),
                "members", describe(admin, group).members().size(), "type", describe(admin, group).type().toString()));
            List<ConsumerRecord<byte[], byte[]>> resumed = Scenarios.readGroup(group, topic, memberConfig(null), Scenarios.reaches(9));
            Scenarios.same(Scenarios.numbered(5, 5), Scenarios.values(resumed), "resumed values");
            Scenarios.observe("resumed", Scenarios.positions(resumed));
            Scenarios.observe("committed-after", Scenarios.committed(admin, group, topic));
        }
    }

    static Set<Integer> held(ConsumerGroupDescription described, String instance) {
        for (MemberDescription m : described.members()) {
            if (m.groupInstanceId().orElse("").equals(instance)) {
                return m.assignment().topicPartitions().stream().map(TopicPartition::partition).collect(Collectors.toSet());
            }
        }
        return null;
    }

    /**
     * Static members (group.instance.id): a static member that closes stays in the group with its partitions for its
     * session; the same instance coming back gets them again without a new group epoch; a second live member with an
     * instance id in use is refused (UNRELEASED_INSTANCE_ID); one that does not come back leaves when its session ends.
     */
    static void staticMembers() throws Exception {
        String topic = Scenarios.prefix + "topic";
        String group = Scenarios.prefix + "group";
        Scenarios.createTopic(topic, 6); // Scenarios.settle checks six partitions are held
        Map<String, Object> steps = new LinkedHashMap<>();
        List<Scenarios.Member> members = new ArrayList<>();
        try (Admin admin = Scenarios.admin()) {
            Scenarios.Member a = new Scenarios.Member(group, topic, memberConfig("instance-a"));
            members.add(a);
            settle(admin, group, "one", List.of(a), List.of(6), 1, steps);
            Scenarios.Member b = new Scenarios.Member(group, topic, memberConfig("instance-b"));
            members.add(b);
            settle(admin, group, "two", List.of(a, b), List.of(3, 3), 2, steps);
            Set<Integer> heldByB = Set.copyOf(b.assignment);
            int epoch = describe(admin, group).groupEpoch().orElseThrow();
            b.stop();
            // Still two members: instance-b keeps its partitions, nothing moves to a.
            ConsumerGroupDescription afterClose = Scenarios.eventually("instance-b closed", () -> {
                ConsumerGroupDescription d = describe(admin, group);
                MemberDescription left = d.members().stream().filter(m -> m.groupInstanceId().orElse("").equals("instance-b")).findFirst().orElse(null);
                return left != null && left.memberEpoch().orElse(0) == -2 ? d : null;
            });
            Set<Integer> away = held(afterClose, "instance-b");
            Scenarios.check(heldByB.equals(away), "instance-b's partitions while it is away: want " + heldByB + ", have " + away);
            Scenarios.same(3, a.assignment.size(), "instance-a's partitions while instance-b is away");
            steps.put("b-closed", Map.of("members", afterClose.members().size(), "state", afterClose.groupState().toString(),
                "groupEpochSinceFirst", afterClose.groupEpoch().orElseThrow() - baseEpoch));
            Scenarios.Member b2 = new Scenarios.Member(group, topic, memberConfig("instance-b"));
            members.add(b2);
            settle(admin, group, "b-back", List.of(a, b2), List.of(3, 3), 2, steps);
            Scenarios.check(heldByB.equals(b2.assignment), "instance-b's partitions when it comes back: want " + heldByB + ", have " + b2.assignment);
            Scenarios.same(epoch, describe(admin, group).groupEpoch().orElseThrow(), "the group epoch after instance-b came back");
            // A second consumer claiming instance-a while instance-a is live.
            Scenarios.Member impostor = new Scenarios.Member(group, topic, memberConfig("instance-a"));
            members.add(impostor);
            Throwable refused = Scenarios.eventually("the duplicate instance-a refused", () -> impostor.failure);
            steps.put("duplicate-instance", refused.getClass().getSimpleName());
            b2.stop();
            // instance-b does not come back: after its session (6 s) instance-a takes all six.
            settle(admin, group, "b-expired", List.of(a), List.of(6), 1, steps);
            Scenarios.observe("steps", steps);
        } finally {
            for (Scenarios.Member m : members) m.stop();
        }
    }
}
