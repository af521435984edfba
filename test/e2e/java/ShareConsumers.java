// Kafka 4.3.1's KafkaShareConsumer (KIP-932) against a broker, one scenario per run; prints what it saw, one fact a
// line, in an order that does not depend on timing. Each run creates its one-partition topic, sets the group's
// share.auto.offset.reset to earliest (and any other group configs given as key=value), and produces its records.
//   java -cp '<kafka libs>/*' ShareConsumers.java <scenario> <bootstrap> <topic> <group> [key=value...]
// implicit: 10 records read with implicit acknowledgement. explicit: a ACCEPTed, b RELEASEd (redelivered, then
// ACCEPTed), c REJECTed. three: three consumers share 300 records, each acknowledged once. hold: acquires records
// and waits to be killed. drain: reads what is left (after hold). poison: one record RELEASEd at every delivery.
// produce: only the set-up, for another reader (kafka-console-share-consumer). txn: a transactional producer commits
// c1 c2, aborts a1 a2, commits c3; read with implicit acknowledgement (the group's share.isolation.level given).
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class ShareConsumers {
    static String bootstrap, topic, group;

    public static void main(String[] args) throws Exception {
        String scenario = args[0];
        bootstrap = args[1]; topic = args[2]; group = args[3];
        Map<String, String> groupConfigs = new LinkedHashMap<>();
        groupConfigs.put("share.auto.offset.reset", "earliest");
        for (int i = 4; i < args.length; i++) groupConfigs.put(args[i].split("=")[0], args[i].split("=")[1]);
        switch (scenario) {
            case "implicit" -> { setUp(groupConfigs, values("r", 10)); implicit(); }
            case "explicit" -> { setUp(groupConfigs, List.of("a", "b", "c")); explicit(); }
            case "three" -> { setUp(groupConfigs, values("r", 300)); three(); }
            case "hold" -> { setUp(groupConfigs, values("h", 5)); hold(); }
            case "drain" -> drain(Integer.parseInt(groupConfigs.getOrDefault("expect", "5")));
            case "produce" -> setUp(groupConfigs, values("c", 5));
            case "poison" -> { setUp(groupConfigs, List.of("poison", "ok")); poison(); }
            case "txn" -> { setUp(groupConfigs, List.of()); transactions(); implicitUntil(3); }
            default -> throw new IllegalArgumentException(scenario);
        }
    }

    static List<String> values(String prefix, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(prefix + i);
        return out;
    }

    static void setUp(Map<String, String> groupConfigs, List<String> values) throws Exception {
        Properties a = new Properties();
        a.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(a)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
            List<AlterConfigOp> ops = new ArrayList<>();
            groupConfigs.forEach((k, v) -> { if (!k.equals("expect")) ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)); });
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), ops)).all().get();
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("linger.ms", "0");
        try (Producer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (String v : values) producer.send(new ProducerRecord<>(topic, 0, null, v));
            producer.flush();
        }
    }

    static KafkaShareConsumer<String, String> consumer(String mode) {
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("group.id", group);
        c.put("share.acknowledgement.mode", mode);
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(c, new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(topic));
        return consumer;
    }

    static short deliveries(ConsumerRecord<String, String> r) {
        return r.deliveryCount().orElse((short) -1);
    }

    static void transactions() throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("transactional.id", "tx-" + topic);
        try (Producer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            for (List<String> values : List.of(List.of("c1", "c2"), List.of("a1", "a2"), List.of("c3"))) {
                producer.beginTransaction();
                for (String v : values) producer.send(new ProducerRecord<>(topic, 0, null, v));
                producer.flush();
                if (values.get(0).startsWith("a")) producer.abortTransaction(); else producer.commitTransaction();
            }
        }
    }

    static void implicit() {
        implicitUntil(10);
    }

    static void implicitUntil(int expect) {
        TreeSet<String> seen = new TreeSet<>();
        try (KafkaShareConsumer<String, String> consumer = consumer("implicit")) {
            while (seen.size() < expect) for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) seen.add(r.offset() + " " + r.value() + " " + deliveries(r));
            consumer.commitSync();
        }
        seen.forEach(System.out::println);
    }

    static void explicit() {
        List<String> out = new ArrayList<>();
        try (KafkaShareConsumer<String, String> consumer = consumer("explicit")) {
            boolean accepted = false;
            while (!accepted) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    AcknowledgeType type = switch (r.value()) {
                        case "a" -> AcknowledgeType.ACCEPT;
                        case "b" -> deliveries(r) == 1 ? AcknowledgeType.RELEASE : AcknowledgeType.ACCEPT;
                        default -> AcknowledgeType.REJECT;
                    };
                    if (r.value().equals("b") && type == AcknowledgeType.ACCEPT) accepted = true;
                    consumer.acknowledge(r, type);
                    out.add(r.offset() + " " + r.value() + " " + deliveries(r) + " " + type);
                }
                consumer.commitSync().forEach((tp, e) -> { if (e.isPresent()) out.add("commit " + e.get()); });
            }
        }
        out.forEach(System.out::println);
    }

    static void three() throws Exception {
        ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<?>> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            runs.add(pool.submit(() -> {
                try (KafkaShareConsumer<String, String> consumer = consumer("implicit")) {
                    while (counts.size() < 300) {
                        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) counts.merge(r.value(), 1, Integer::sum);
                        consumer.commitSync();
                    }
                }
                return null;
            }));
        }
        for (Future<?> run : runs) run.get();
        pool.shutdown();
        System.out.println("distinct " + counts.size());
        System.out.println("deliveries " + counts.values().stream().mapToInt(Integer::intValue).sum());
    }

    static void hold() throws Exception {
        KafkaShareConsumer<String, String> consumer = consumer("explicit");
        int held = 0;
        while (held == 0) held = consumer.poll(Duration.ofMillis(500)).count();
        System.out.println("held " + held);
        System.out.flush();
        Thread.sleep(600_000);
    }

    static void drain(int expect) {
        implicitUntil(expect);
    }

    static void poison() {
        List<String> out = new ArrayList<>();
        try (KafkaShareConsumer<String, String> consumer = consumer("explicit")) {
            long quietSince = System.currentTimeMillis();
            // Until nothing more comes for 3 s after the last delivery: the poison record is archived after the limit.
            while (out.isEmpty() || System.currentTimeMillis() - quietSince < 3000) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<String, String> r : records) {
                    AcknowledgeType type = r.value().equals("poison") ? AcknowledgeType.RELEASE : AcknowledgeType.ACCEPT;
                    consumer.acknowledge(r, type);
                    out.add(r.offset() + " " + r.value() + " " + deliveries(r) + " " + type);
                    quietSince = System.currentTimeMillis();
                }
                if (!records.isEmpty()) consumer.commitSync();
            }
        }
        out.forEach(System.out::println);
    }
}
