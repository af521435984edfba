// The Java client (kafka-clients 4.x, the reference install's jar): every scenario.
// Usage: java -cp <classes>:<kafka libs>/* Scenarios <scenario> <bootstrap> <name-prefix>
// exit 0 = pass, 1 = fail with the reason on stderr; "OBSERVE <key> <json>" lines feed the differential mode
// (see runner/external.ts). "member <bootstrap> <group> <topic>" runs one group member until killed.
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class Scenarios {
    /** Stops a broken run from hanging; not a claim about speed. */
    static final long LIMIT_MS = 60_000;
    /** The broker's group.min.session.timeout.ms: a crashed member is noticed after this long. */
    static final int SESSION_TIMEOUT_MS = 6000;
    static String bootstrap;
    static String prefix;

    public static void main(String[] args) throws Exception {
        if ((args.length == 4 || args.length == 5) && args[0].equals("member")) {
            member(args[1], args[2], args[3], args.length == 5 ? ConsumerProtocol.memberConfig(args[4]) : null);
            return;
        }
        if (args.length != 3) {
            System.err.println("usage: Scenarios <scenario> <bootstrap> <name-prefix>");
            System.exit(2);
        }
        bootstrap = args[1];
        prefix = args[2];
        try {
            switch (args[0]) {
                case "metadata" -> metadata();
                case "topic-admin" -> topicAdmin();
                case "produce-consume" -> produceConsume();
                case "group-rebalance" -> groupRebalance();
                case "commit-resume" -> commitResume();
                case "offset-reset" -> offsetReset();
                case "two-groups" -> twoGroups();
                case "seek-replay" -> seekReplay();
                case "offsets-for-times" -> offsetsForTimes();
                case "idempotent-producer" -> idempotentProducer();
                case "transactions" -> transactions();
                case "broker-restart-before" -> brokerRestartBefore();
                case "broker-restart-after" -> brokerRestartAfter();
                case "error-unknown-topic" -> errorUnknownTopic();
                case "error-message-too-large" -> errorMessageTooLarge();
                case "error-invalid-topic" -> errorInvalidTopic();
                case "error-invalid-config" -> errorInvalidConfig();
                case "newest-versions" -> newestVersions();
                case "consumer-group-rebalance" -> ConsumerProtocol.groupRebalance();
                case "consumer-commit-resume" -> ConsumerProtocol.commitResume();
                case "consumer-static-members" -> ConsumerProtocol.staticMembers();
                case "auth-failure" -> Security.authFailure(bootstrap);
                default -> {
                    System.err.println("unknown scenario " + args[0]);
                    System.exit(2);
                }
            }
        } catch (Throwable failure) {
            System.err.println(failure.getClass().getSimpleName() + ": " + failure.getMessage());
            System.exit(1);
        }
        System.exit(0);
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    static void check(boolean condition, String what) {
        if (!condition) throw new AssertionError(what);
    }

    static void same(Object want, Object have, String what) {
        if (!String.valueOf(want).equals(String.valueOf(have))) throw new AssertionError(what + ": want " + want + ", have " + have);
    }

    static void observe(String key, Object value) {
        System.out.println("OBSERVE " + key + " " + json(value));
    }

    static String json(Object value) {
        if (value == null) return "null";
        if (value instanceof Number || value instanceof Boolean) return value.toString();
        if (value instanceof Map<?, ?> map) {
            return map.entrySet().stream().map(e -> json(String.valueOf(e.getKey())) + ":" + json(e.getValue()))
                .collect(Collectors.joining(",", "{", "}"));
        }
        if (value instanceof Collection<?> list) return list.stream().map(Scenarios::json).collect(Collectors.joining(",", "[", "]"));
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toString().toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }

    static <T> T eventually(String what, Supplier<T> probe) throws InterruptedException {
        long deadline = System.currentTimeMillis() + LIMIT_MS;
        Throwable last = null;
        while (true) {
            try {
                T value = probe.get();
                if (value != null) return value;
            } catch (RuntimeException | AssertionError e) {
                last = e;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("gave up waiting for " + what + (last == null ? "" : ": " + last.getMessage()));
            }
            Thread.sleep(200);
        }
    }

    interface Work {
        void run() throws Exception;
    }

    /** The Kafka error name behind a failure (UNKNOWN_TOPIC_OR_PARTITION, ...), looking through wrappers. */
    static String failsWith(String what, Work work) {
        try {
            work.run();
        } catch (Throwable failure) {
            Throwable cause = failure;
            while ((cause instanceof ExecutionException || cause.getClass() == org.apache.kafka.common.KafkaException.class)
                && cause.getCause() != null) cause = cause.getCause();
            Errors error = Errors.forException(cause);
            return error == Errors.UNKNOWN_SERVER_ERROR ? "not a Kafka error: " + cause : error.name();
        }
        throw new AssertionError(what + " succeeded; Kafka refuses it");
    }

    /** The broker's message with a failure, for errors whose wording Kafka fixes. */
    static String messageOf(Work work) {
        try {
            work.run();
            return "succeeded";
        } catch (Throwable failure) {
            Throwable cause = failure instanceof ExecutionException && failure.getCause() != null ? failure.getCause() : failure;
            return cause.getMessage();
        }
    }

    static Admin admin() {
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.putAll(Security.settings());
        return Admin.create(props);
    }

    static void createTopic(Admin admin, String topic, int partitions, Map<String, String> configs) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(configs))).all().get();
    }

    static void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin = admin()) {
            createTopic(admin, topic, partitions, Map.of());
        }
    }

    static KafkaProducer<byte[], byte[]> producer(Map<String, Object> extra) {
        Map<String, Object> props = new TreeMap<>();
        props.put("bootstrap.servers", bootstrap);
        props.putAll(Security.settings());
        // The Java producer is idempotent by default; only the idempotence scenarios ask for it.
        props.put("enable.idempotence", "false");
        props.put("acks", "all");
        props.put("linger.ms", "0");
        props.putAll(extra);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    static KafkaConsumer<byte[], byte[]> consumer(String group, Map<String, Object> extra) {
        Map<String, Object> props = new TreeMap<>();
        props.put("bootstrap.servers", bootstrap);
        props.putAll(Security.settings());
        props.put("group.id", group);
        props.put("auto.offset.reset", "earliest");
        props.put("enable.auto.commit", "false");
        props.putAll(extra);
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    static byte[] bytes(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] data) {
        return data == null ? null : new String(data, StandardCharsets.UTF_8);
    }

    static List<Long> produceNumbered(String topic, int from, int count) throws Exception {
        List<Long> offsets = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of())) {
            for (int i = from; i < from + count; i++) offsets.add(producer.send(new ProducerRecord<>(topic, 0, null, bytes("m" + i))).get().offset());
        }
        return offsets;
    }

    /** Polls until done holds over everything received; each record goes through onRecord first. */
    static List<ConsumerRecord<byte[], byte[]>> pollUntil(KafkaConsumer<byte[], byte[]> consumer,
            Predicate<List<ConsumerRecord<byte[], byte[]>>> done, java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> onRecord) {
        List<ConsumerRecord<byte[], byte[]>> received = new ArrayList<>();
        long deadline = System.currentTimeMillis() + LIMIT_MS;
        while (!done.test(received)) {
            if (System.currentTimeMillis() > deadline) throw new AssertionError("have " + received.size() + " records: " + positions(received) + " " + values(received));
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                onRecord.accept(record);
                received.add(record);
                if (done.test(received)) break;
            }
        }
        return received;
    }

    static List<ConsumerRecord<byte[], byte[]>> readGroup(String group, String topic, Map<String, Object> extra,
            Predicate<List<ConsumerRecord<byte[], byte[]>>> done) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(group, extra)) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<byte[], byte[]>> received = pollUntil(consumer, done, r -> { });
            consumer.commitSync();
            return received;
        }
    }

    static Predicate<List<ConsumerRecord<byte[], byte[]>>> atLeast(int count) {
        return received -> received.size() >= count;
    }

    static Predicate<List<ConsumerRecord<byte[], byte[]>>> reaches(long offset) {
        return received -> received.stream().anyMatch(r -> r.offset() >= offset);
    }

    static List<String> positions(List<ConsumerRecord<byte[], byte[]>> received) {
        return received.stream().map(r -> r.partition() + ":" + r.offset()).toList();
    }

    static List<String> values(List<ConsumerRecord<byte[], byte[]>> received) {
        return received.stream().map(r -> text(r.value())).toList();
    }

    static List<String> numbered(int from, int count) {
        return IntStream.range(from, from + count).mapToObj(i -> "m" + i).toList();
    }

    static Long committed(Admin admin, String group, String topic) throws Exception {
        OffsetAndMetadata offset = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().get(new TopicPartition(topic, 0));
        return offset == null ? null : offset.offset();
    }

    static Map<String, String> topicConfigs(Admin admin, String topic, List<String> names) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
        Map<String, String> values = new TreeMap<>();
        for (String name : names) {
            ConfigEntry entry = config.get(name);
            values.put(name, entry == null ? null : entry.value());
        }
        return values;
    }

    // ---- scenarios --------------------------------------------------------------------------------------------

    static void metadata() throws Exception {
        try (Admin admin = admin()) {
            DescribeClusterResult cluster = admin.describeCluster();
            Collection<Node> nodes = cluster.nodes().get();
            check(nodes.size() == 1, "one broker, have " + nodes);
            Node broker = nodes.iterator().next();
            same(bootstrap, broker.host() + ":" + broker.port(), "the broker advertises the bootstrap address");
            same(broker.id(), cluster.controller().get().id(), "the controller is the broker");
            check(!cluster.clusterId().get().isEmpty(), "a cluster id");
            String topic = prefix + "topic";
            createTopic(admin, topic, 3, Map.of());
            TopicDescription described = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            List<String> layout = new ArrayList<>();
            for (TopicPartitionInfo p : described.partitions()) {
                same(broker.id(), p.leader().id(), "partition " + p.partition() + " leader");
                same(List.of(broker), p.replicas(), "partition " + p.partition() + " replicas");
                same(List.of(broker), p.isr(), "partition " + p.partition() + " isr");
                layout.add(p.partition() + ": leader " + p.leader().id() + " replicas " + p.replicas().size() + " isr " + p.isr().size());
            }
            same(3, layout.size(), "partitions");
            observe("partitions", layout);
            check(admin.listTopics().names().get().contains(topic), "listTopics shows the new topic");
            observe("create-again", failsWith("creating the topic again", () -> createTopic(admin, topic, 1, Map.of())));
        }
    }

    static void topicAdmin() throws Exception {
        String topic = prefix + "topic";
        List<String> names = List.of("cleanup.policy", "retention.ms", "max.message.bytes", "segment.bytes");
        try (Admin admin = admin()) {
            createTopic(admin, topic, 3, Map.of("cleanup.policy", "compact"));
            Map<String, String> created = topicConfigs(admin, topic, names);
            same("compact", created.get("cleanup.policy"), "cleanup.policy");
            same("604800000", created.get("retention.ms"), "retention.ms");
            observe("configs-created", created);
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            admin.incrementalAlterConfigs(Map.of(resource, List.of(
                new AlterConfigOp(new ConfigEntry("retention.ms", "3600000"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("cleanup.policy", null), AlterConfigOp.OpType.DELETE)))).all().get();
            // The broker applies an altered config once the controller's record reaches it: read until it shows.
            Map<String, String> want = Map.of("cleanup.policy", "delete", "retention.ms", "3600000");
            eventually("the altered configs", () -> {
                try {
                    Map<String, String> have = topicConfigs(admin, topic, List.of("cleanup.policy", "retention.ms"));
                    return have.equals(want) ? have : null;
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            observe("configs-altered", topicConfigs(admin, topic, names));
            admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(5))).all().get();
            eventually("5 partitions", () -> {
                try {
                    return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size() == 5 ? true : null;
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            observe("shrink-partitions", failsWith("shrinking to 2 partitions",
                () -> admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(2))).all().get()));
            admin.deleteTopics(List.of(topic)).all().get();
            eventually("the deleted topic to leave listTopics", () -> {
                try {
                    return admin.listTopics().names().get().contains(topic) ? null : true;
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
        }
    }

    record Sent(String key, byte[] value, List<Header> headers, String codec) { }

    static void produceConsume() throws Exception {
        String topic = prefix + "topic";
        createTopic(topic, 1);
        List<Sent> sent = new ArrayList<>(List.of(
            new Sent("k1", bytes("v1"), List.of(new RecordHeader("h1", bytes("x")), new RecordHeader("h2", bytes("y"))), "none"),
            new Sent(null, bytes("no key"), List.of(), "none"),
            new Sent("empty", new byte[0], List.of(), "none"),
            new Sent("null", null, List.of(), "none"),
            // Near the broker's default limit (max.message.bytes 1048588 for the whole batch) yet under it.
            new Sent("big", "x".repeat(1_000_000).getBytes(StandardCharsets.UTF_8), List.of(), "none")));
        for (String codec : List.of("gzip", "snappy", "lz4", "zstd")) sent.add(new Sent(codec, bytes("compressed with " + codec), List.of(), codec));
        List<Long> offsets = new ArrayList<>();
        for (String codec : List.of("none", "gzip", "snappy", "lz4", "zstd")) {
            try (KafkaProducer<byte[], byte[]> producer = producer(Map.of("compression.type", codec))) {
                for (Sent s : sent) {
                    if (s.codec().equals(codec)) offsets.add(producer.send(new ProducerRecord<>(topic, 0, bytes(s.key()), s.value(), s.headers())).get().offset());
                }
            }
        }
        observe("offsets", offsets);
        List<ConsumerRecord<byte[], byte[]>> received = readGroup(prefix + "group", topic, Map.of(), atLeast(sent.size()));
        for (int i = 0; i < sent.size(); i++) {
            Sent s = sent.get(i);
            ConsumerRecord<byte[], byte[]> r = received.get(i);
            same(i, r.offset(), "offset");
            same(s.key(), text(r.key()), "key at " + i);
            check(s.value() == null ? r.value() == null : Arrays.equals(s.value(), r.value()), "value at " + i);
            same(s.headers().stream().map(h -> h.key() + "=" + text(h.value())).toList(),
                Arrays.stream(r.headers().toArray()).map(h -> h.key() + "=" + text(h.value())).toList(), "headers at " + i);
        }
    }

    /** One group member polling on its own thread; its assignment as the rebalance listener reports it. */
    static final class Member implements Runnable {
        final String group;
        final String topic;
        /** The consumer's group settings: the classic protocol's timeouts, or ConsumerProtocol's. */
        final Map<String, Object> config;
        volatile Set<Integer> assignment = Set.of();
        volatile boolean stopping;
        final Thread thread = new Thread(this);
        volatile Throwable failure;

        Member(String group, String topic) {
            this(group, topic, null);
        }

        Member(String group, String topic, Map<String, Object> config) {
            this.group = group;
            this.topic = topic;
            this.config = config != null ? config : Map.of("session.timeout.ms", SESSION_TIMEOUT_MS, "heartbeat.interval.ms", 500);
            thread.start();
        }

        @Override
        public void run() {
            try (KafkaConsumer<byte[], byte[]> consumer = consumer(group, config)) {
                consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                    @Override
                    public void onPartitionsRevoked(Collection<TopicPartition> partitions) { }

                    @Override
                    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                        assignment = consumer.assignment().stream().map(TopicPartition::partition).collect(Collectors.toSet());
                    }
                });
                while (!stopping) consumer.poll(Duration.ofMillis(100));
            } catch (Throwable e) {
                failure = e;
            }
        }

        /** A clean leave: close() sends LeaveGroup. */
        void stop() throws InterruptedException {
            stopping = true;
            thread.join();
        }
    }

    static void member(String bootstrapServers, String group, String topic, Map<String, Object> config) throws InterruptedException {
        bootstrap = bootstrapServers;
        new Member(group, topic, config).thread.join();
    }

    static void groupRebalance() throws Exception {
        String topic = prefix + "topic";
        String group = prefix + "group";
        createTopic(topic, 6);
        Map<String, Object> steps = new LinkedHashMap<>();
        List<Member> members = new ArrayList<>();
        Process crasher = null;
        try (Admin admin = admin()) {
            Member a = new Member(group, topic);
            members.add(a);
            settle(admin, group, "one", List.of(a), List.of(6), 1, steps);
            Member b = new Member(group, topic);
            members.add(b);
            settle(admin, group, "two", List.of(a, b), List.of(3, 3), 2, steps);
            Member c = new Member(group, topic);
            members.add(c);
            settle(admin, group, "three", List.of(a, b, c), List.of(2, 2, 2), 3, steps);
            c.stop();
            settle(admin, group, "after-leave", List.of(a, b), List.of(3, 3), 2, steps);
            // A member in a JVM of its own, killed: no LeaveGroup, the coordinator notices when its session times out.
            crasher = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
                "Scenarios", "member", bootstrap, group, topic).inheritIO().start();
            settle(admin, group, "rejoin", List.of(a, b), List.of(2, 2), 3, steps);
            crasher.destroyForcibly();
            settle(admin, group, "after-crash", List.of(a, b), List.of(3, 3), 2, steps);
            observe("steps", steps);
        } finally {
            if (crasher != null) crasher.destroyForcibly();
            for (Member m : members) m.stop();
        }
    }

    /** Waits until these members hold partitions of these sizes and the group is Stable with `live` members. */
    static void settle(Admin admin, String group, String step, List<Member> live, List<Integer> sizes, int total, Map<String, Object> steps)
            throws InterruptedException {
        ConsumerGroupDescription described = eventually(step + ": sizes " + sizes, () -> {
            for (Member m : live) if (m.failure != null) throw new AssertionError("member failed: " + m.failure);
            List<Integer> have = live.stream().map(m -> m.assignment.size()).sorted().toList();
            Set<Integer> union = new HashSet<>();
            live.forEach(m -> union.addAll(m.assignment));
            if (!have.equals(sizes)) return null;
            if (total == live.size() && union.size() != 6) return null;
            try {
                ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
                return d.members().size() == total && d.groupState().toString().equals("Stable") ? d : null;
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        steps.put(step, Map.of("sizes", sizes, "state", described.groupState().toString(), "members", described.members().size(),
            "assignor", String.valueOf(described.partitionAssignor()), "type", described.type().toString()));
    }

    static void commitResume() throws Exception {
        String topic = prefix + "topic";
        String group = prefix + "group";
        createTopic(topic, 1);
        produceNumbered(topic, 0, 10);
        try (Admin admin = admin()) {
            observe("committed-before", committed(admin, group, topic));
            try (KafkaConsumer<byte[], byte[]> consumer = consumer(group, Map.of())) {
                consumer.subscribe(List.of(topic));
                pollUntil(consumer, reaches(4), r -> {
                    if (r.offset() == 4) consumer.commitSync(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(5)));
                });
            }
            same(5L, committed(admin, group, topic), "committed offset");
            List<ConsumerRecord<byte[], byte[]>> resumed = readGroup(group, topic, Map.of(), reaches(9));
            same(numbered(5, 5), values(resumed), "resumed values");
            observe("resumed", positions(resumed));
            observe("committed-after", committed(admin, group, topic));
        }
    }

    /** kafka-consumer-groups --reset-offsets ... --execute; returns "partition:new-offset" rows. */
    static List<String> resetOffsets(String group, String topic, String... how) throws Exception {
        List<String> command = new ArrayList<>(List.of(System.getenv("COMPAT_BIN_DIR") + "/kafka-consumer-groups", "--bootstrap-server", bootstrap,
            "--group", group, "--topic", topic, "--reset-offsets"));
        command.addAll(List.of(how));
        command.add("--execute");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) throw new AssertionError("kafka-consumer-groups: " + output.trim());
        return output.lines().map(line -> line.trim().split("\\s+")).filter(f -> f.length >= 4 && f[0].equals(group) && f[1].equals(topic))
            .map(f -> f[2] + ":" + f[3]).toList();
    }

    static void offsetReset() throws Exception {
        String topic = prefix + "topic";
        String group = prefix + "group";
        createTopic(topic, 1);
        produceNumbered(topic, 0, 10);
        readGroup(group, topic, Map.of(), atLeast(10));
        try (Admin admin = admin()) {
            same(10L, committed(admin, group, topic), "committed after reading everything");
            List<String> table = resetOffsets(group, topic, "--to-offset", "3");
            same(List.of("0:3"), table, "the tool's table");
            same(3L, committed(admin, group, topic), "committed after the reset");
            List<ConsumerRecord<byte[], byte[]>> resumed = readGroup(group, topic, Map.of(), reaches(9));
            same(numbered(3, 7), values(resumed), "resumed values");
            observe("tool", Map.of("toOffset", table, "toEarliest", resetOffsets(group, topic, "--to-earliest")));
            observe("resumed", positions(resumed));
        }
    }

    static void twoGroups() throws Exception {
        String topic = prefix + "topic";
        createTopic(topic, 2);
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of())) {
            for (int i = 0; i < 10; i++) producer.send(new ProducerRecord<>(topic, bytes("key-" + i), bytes("m" + i))).get();
        }
        Function<List<ConsumerRecord<byte[], byte[]>>, List<String>> sorted =
            received -> received.stream().map(r -> r.partition() + ":" + r.offset() + ":" + text(r.value())).sorted().toList();
        List<String> first = sorted.apply(readGroup(prefix + "first", topic, Map.of(), atLeast(10)));
        List<String> second = sorted.apply(readGroup(prefix + "second", topic, Map.of(), atLeast(10)));
        same(first, second, "both groups read the same");
        observe("placement", first);
    }

    static void seekReplay() throws Exception {
        String topic = prefix + "topic";
        createTopic(topic, 1);
        produceNumbered(topic, 0, 10);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(prefix + "group", Map.of())) {
            consumer.subscribe(List.of(topic));
            boolean[] sought = {false};
            List<ConsumerRecord<byte[], byte[]>> received = pollUntil(consumer, atLeast(17), r -> {
                if (!sought[0] && r.offset() == 9) {
                    sought[0] = true;
                    consumer.seek(new TopicPartition(topic, 0), 3);
                }
            });
            List<Long> offsets = received.stream().map(ConsumerRecord::offset).toList();
            same(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), offsets, "offsets");
            observe("offsets", offsets);
        }
    }

    static final long BASE_TIME = 1_700_000_000_000L;

    static void offsetsForTimes() throws Exception {
        String topic = prefix + "topic";
        createTopic(topic, 1);
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of())) {
            for (int i = 0; i < 5; i++) producer.send(new ProducerRecord<>(topic, 0, BASE_TIME + i * 1000L, null, bytes("t" + i))).get();
        }
        Map<String, Object> answers = new LinkedHashMap<>();
        try (Admin admin = admin()) {
            Map<String, OffsetSpec> specs = new LinkedHashMap<>();
            specs.put("before", OffsetSpec.forTimestamp(BASE_TIME - 1000));
            specs.put("exact", OffsetSpec.forTimestamp(BASE_TIME + 2000));
            specs.put("between", OffsetSpec.forTimestamp(BASE_TIME + 2500));
            specs.put("after", OffsetSpec.forTimestamp(BASE_TIME + 60_000));
            specs.put("earliest", OffsetSpec.earliest());
            specs.put("latest", OffsetSpec.latest());
            specs.put("max-timestamp", OffsetSpec.maxTimestamp());
            for (Map.Entry<String, OffsetSpec> spec : specs.entrySet()) {
                var info = admin.listOffsets(Map.of(partition, spec.getValue())).partitionResult(partition).get();
                answers.put(spec.getKey(), info.offset() + "@" + info.timestamp());
            }
        }
        same(Map.of("before", "0@" + BASE_TIME, "exact", "2@" + (BASE_TIME + 2000), "between", "3@" + (BASE_TIME + 3000), "after", "-1@-1",
            "earliest", "0@-1", "latest", "5@-1", "max-timestamp", "4@" + (BASE_TIME + 4000)).entrySet().stream().sorted(Map.Entry.comparingByKey()).toList(),
            answers.entrySet().stream().sorted(Map.Entry.comparingByKey()).toList(), "admin listOffsets");
        observe("admin", answers);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(prefix + "group", Map.of())) {
            Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(Map.of(partition, BASE_TIME + 2500));
            same(3L, found.get(partition).offset(), "consumer offsetsForTimes");
            same(null, consumer.offsetsForTimes(Map.of(partition, BASE_TIME + 60_000)).get(partition), "later than every record");
        }
    }

    static void idempotentProducer() throws Exception {
        String topic = prefix + "topic";
        createTopic(topic, 1);
        List<Long> offsets = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of("enable.idempotence", "true", "max.in.flight.requests.per.connection", "5"))) {
            List<java.util.concurrent.Future<RecordMetadata>> sends = new ArrayList<>();
            for (int i = 0; i < 9; i++) sends.add(producer.send(new ProducerRecord<>(topic, 0, null, bytes("m" + i))));
            for (var send : sends) offsets.add(send.get().offset());
        }
        same(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L), offsets, "offsets");
        observe("offsets", offsets);
        same(numbered(0, 9), values(readGroup(prefix + "group", topic, Map.of(), atLeast(9))), "read back");
    }

    static void transactions() throws Exception {
        String topic = prefix + "topic";
        createTopic(topic, 1);
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of("enable.idempotence", "true", "transactional.id", prefix + "txn"))) {
            producer.initTransactions();
            // Committed (offsets 0-2, marker 3), aborted (4-5, marker 6), committed (7, marker 8).
            String[][] steps = {{"commit", "c0", "c1", "c2"}, {"abort", "a0", "a1"}, {"commit", "c3"}};
            for (String[] step : steps) {
                producer.beginTransaction();
                for (int i = 1; i < step.length; i++) producer.send(new ProducerRecord<>(topic, 0, null, bytes(step[i])));
                // Aborting drops records not sent yet: send them all first so the log holds the aborted ones.
                producer.flush();
                if (step[0].equals("commit")) producer.commitTransaction();
                else producer.abortTransaction();
            }
        }
        List<ConsumerRecord<byte[], byte[]>> committed = readGroup(prefix + "committed", topic, Map.of("isolation.level", "read_committed"), atLeast(4));
        same(List.of("c0", "c1", "c2", "c3"), values(committed), "read_committed");
        List<ConsumerRecord<byte[], byte[]>> everything = readGroup(prefix + "uncommitted", topic, Map.of("isolation.level", "read_uncommitted"), atLeast(6));
        same(List.of("c0", "c1", "c2", "a0", "a1", "c3"), values(everything), "read_uncommitted");
        observe("read-committed", positions(committed));
        observe("read-uncommitted", positions(everything));
        try (Admin admin = admin()) {
            TopicPartition partition = new TopicPartition(topic, 0);
            observe("end-offset", admin.listOffsets(Map.of(partition, OffsetSpec.latest())).partitionResult(partition).get().offset());
            observe("coordinator-view", transactionView(admin, prefix + "txn"));
        }
    }

    /**
     * What the transaction coordinator says of a finished transactional id: its state, the producer epoch (with
     * transaction.version 2 every commit or abort bumps it) and the partitions still in a transaction.
     */
    static Map<String, Object> transactionView(Admin admin, String transactionalId) throws Exception {
        TransactionDescription described = admin.describeTransactions(List.of(transactionalId)).description(transactionalId).get();
        Map<String, Object> view = new TreeMap<>();
        view.put("state", described.state().toString());
        view.put("producer-epoch", described.producerEpoch());
        view.put("timeout-ms", described.transactionTimeoutMs());
        view.put("partitions", described.topicPartitions().size());
        return view;
    }

    /**
     * Everything a typical application does, for the runner to read the versions used through its recording proxy:
     * an idempotent producer, a group consumer that commits, a consume-transform-produce transaction that commits
     * the group's offsets with it, a read_committed reader, and the admin calls that describe the result.
     */
    static void newestVersions() throws Exception {
        String topic = prefix + "topic";
        String output = prefix + "output";
        String group = prefix + "group";
        try (Admin admin = admin()) {
            createTopic(admin, topic, 1, Map.of());
            createTopic(admin, output, 1, Map.of());
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of("enable.idempotence", "true"))) {
            for (int i = 0; i < 3; i++) producer.send(new ProducerRecord<>(topic, 0, bytes("k" + i), bytes("m" + i))).get();
        }
        same(numbered(0, 3), values(readGroup(prefix + "reader", topic, Map.of(), atLeast(3))), "read through a group");
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(group, Map.of("isolation.level", "read_committed"));
             KafkaProducer<byte[], byte[]> producer = producer(Map.of("enable.idempotence", "true", "transactional.id", prefix + "txn"))) {
            producer.initTransactions();
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<byte[], byte[]>> received = pollUntil(consumer, atLeast(3), r -> { });
            producer.beginTransaction();
            for (ConsumerRecord<byte[], byte[]> record : received) {
                producer.send(new ProducerRecord<>(output, 0, record.key(), bytes(text(record.value()).toUpperCase())));
            }
            producer.sendOffsetsToTransaction(Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(3)), consumer.groupMetadata());
            producer.commitTransaction();
        }
        List<ConsumerRecord<byte[], byte[]>> transformed = readGroup(prefix + "checker", output, Map.of("isolation.level", "read_committed"), atLeast(3));
        same(List.of("M0", "M1", "M2"), values(transformed), "the transaction's output");
        try (Admin admin = admin()) {
            same(3L, committed(admin, group, topic), "the offset committed in the transaction");
            ConsumerGroupDescription described = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
            TopicPartition partition = new TopicPartition(output, 0);
            observe("output", positions(transformed));
            observe("output-end-offset", admin.listOffsets(Map.of(partition, OffsetSpec.latest())).partitionResult(partition).get().offset());
            observe("group-state", described.groupState().toString());
            observe("coordinator-view", transactionView(admin, prefix + "txn"));
            observe("cluster-brokers", admin.describeCluster().nodes().get().size());
            observe("listed-transactions", admin.listTransactions().all().get().stream()
                .filter(t -> t.transactionalId().equals(prefix + "txn")).map(t -> t.state().toString()).toList());
        }
    }

    static void brokerRestartBefore() throws Exception {
        String topic = prefix + "topic";
        createTopic(topic, 1);
        produceNumbered(topic, 0, 5);
        readGroup(prefix + "group", topic, Map.of(), atLeast(5));
    }

    static void brokerRestartAfter() throws Exception {
        String topic = prefix + "topic";
        String group = prefix + "group";
        try (Admin admin = admin()) {
            // The coordinator answers COORDINATOR_LOAD_IN_PROGRESS until it has loaded its offsets again.
            Long committed = eventually("the committed offset", () -> {
                try {
                    return committed(admin, group, topic);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            same(5L, committed, "committed offset after the restart");
        }
        same(List.of(5L, 6L, 7L, 8L, 9L), produceNumbered(topic, 5, 5), "offsets after the restart");
        List<ConsumerRecord<byte[], byte[]>> resumed = readGroup(group, topic, Map.of(), reaches(9));
        same(numbered(5, 5), values(resumed), "resumed values");
        same(numbered(0, 10), values(readGroup(prefix + "all", topic, Map.of(), atLeast(10))), "everything");
        observe("resumed", positions(resumed));
    }

    static void errorUnknownTopic() throws Exception {
        String topic = prefix + "missing";
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(prefix + "group", Map.of("allow.auto.create.topics", "false"))) {
            observe("consumer-partitions-for", consumer.partitionsFor(topic, Duration.ofSeconds(10)).size());
        }
        try (Admin admin = admin()) {
            check(!admin.listTopics().names().get().contains(topic), "the topic was not created");
            observe("describe-topic", failsWith("describing a missing topic", () -> admin.describeTopics(List.of(topic)).allTopicNames().get()));
            observe("describe-configs", failsWith("describing a missing topic's configs", () -> topicConfigs(admin, topic, List.of("retention.ms"))));
            observe("delete", failsWith("deleting a missing topic", () -> admin.deleteTopics(List.of(topic)).all().get()));
            observe("add-partitions", failsWith("adding partitions to a missing topic",
                () -> admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(2))).all().get()));
        }
    }

    static void errorMessageTooLarge() throws Exception {
        String topic = prefix + "topic";
        try (Admin admin = admin()) {
            createTopic(admin, topic, 1, Map.of("max.message.bytes", "2000"));
        }
        // max.request.size raised so the broker, not the client, judges the size.
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of("max.request.size", "4194304", "retries", "0"))) {
            observe("over-topic-limit", failsWith("a 3000-byte record",
                () -> producer.send(new ProducerRecord<>(topic, 0, null, new byte[3000])).get()));
            String other = prefix + "default";
            createTopic(other, 1);
            observe("over-broker-default", failsWith("a 1.1 MB record",
                () -> producer.send(new ProducerRecord<>(other, 0, null, new byte[1_100_000])).get()));
            observe("under-limit-offset", producer.send(new ProducerRecord<>(topic, 0, null, new byte[1000])).get().offset());
        }
    }

    static void errorInvalidTopic() throws Exception {
        try (Admin admin = admin()) {
            observe("space-and-bang", failsWith("\"bad name!\"", () -> createTopic(admin, "bad name!", 1, Map.of())));
            observe("dot", failsWith("\".\"", () -> createTopic(admin, ".", 1, Map.of())));
            observe("250-chars", failsWith("a 250-character name", () -> createTopic(admin, "x".repeat(250), 1, Map.of())));
            observe("zero-partitions", failsWith("0 partitions", () -> createTopic(admin, prefix + "zero", 0, Map.of())));
        }
    }

    static void errorInvalidConfig() throws Exception {
        String topic = prefix + "topic";
        try (Admin admin = admin()) {
            observe("create-bad-value", failsWith("cleanup.policy=bogus", () -> createTopic(admin, topic, 1, Map.of("cleanup.policy", "bogus"))));
            observe("create-bad-value-message", messageOf(() -> createTopic(admin, topic, 1, Map.of("cleanup.policy", "bogus"))));
            observe("create-bad-number", failsWith("retention.ms=abc", () -> createTopic(admin, topic, 1, Map.of("retention.ms", "abc"))));
            observe("create-unknown-name", failsWith("no.such.config=1", () -> createTopic(admin, topic, 1, Map.of("no.such.config", "1"))));
            check(!admin.listTopics().names().get().contains(topic), "a refused topic is not created");
            createTopic(admin, topic, 1, Map.of());
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            observe("alter-bad-value", failsWith("retention.ms=abc", () -> admin.incrementalAlterConfigs(Map.of(resource,
                List.of(new AlterConfigOp(new ConfigEntry("retention.ms", "abc"), AlterConfigOp.OpType.SET)))).all().get()));
            observe("configs-after", topicConfigs(admin, topic, List.of("retention.ms")));
        }
    }
}
