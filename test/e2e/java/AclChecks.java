// Kafka 4.3.1's Java client as a user whose ACLs allow little: each step prints what the client saw, one line each
// ("= step: outcome", the exception's class and message or what it read), so a test compares the lines with Kafka's.
//   java -cp '<kafka libs>/*' AclChecks.java <bootstrap> <user> <password> <readable topic> <its group> <secret topic>
import java.time.Duration;
import java.util.*;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class AclChecks {
    interface Step { String run() throws Exception; }

    static void step(String name, Step step) {
        String seen;
        try {
            seen = step.run();
        } catch (Exception e) {
            Throwable t = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            seen = t.getClass().getName() + ": " + t.getMessage();
        }
        System.out.println("= " + name + ": " + seen);
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], user = args[1], password = args[2], readable = args[3], group = args[4], secret = args[5];
        Properties base = new Properties();
        base.put("bootstrap.servers", bootstrap);
        base.put("security.protocol", "SASL_PLAINTEXT");
        base.put("sasl.mechanism", "PLAIN");
        base.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + user + "\" password=\"" + password + "\";");

        step("consume " + readable, () -> consume(base, readable, group));
        step("consume " + secret, () -> consume(base, secret, group));
        step("consume with group other", () -> consume(base, readable, "other"));
        step("produce " + readable, () -> produce(base, readable, null));
        step("transactional produce", () -> produce(base, readable, "tx-" + user));
        try (Admin admin = Admin.create(base)) {
            step("list topics", () -> new TreeSet<>(admin.listTopics().names().get()).toString());
            step("create topic", () -> { admin.createTopics(List.of(new NewTopic("created-by-" + user, 1, (short) 1))).all().get(); return "created"; });
            step("delete topic " + readable, () -> { admin.deleteTopics(List.of(readable)).all().get(); return "deleted"; });
            step("describe configs " + readable, () -> admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, readable))).all().get().size() + " resources");
            step("describe cluster operations", () -> String.valueOf(admin.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true)).authorizedOperations().get()));
            step("list groups", () -> admin.listGroups().all().get().stream().map(g -> g.groupId()).sorted().toList().toString());
            step("describe topic operations " + readable, () -> new TreeSet<>(admin.describeTopics(List.of(readable), new DescribeTopicsOptions().includeAuthorizedOperations(true))
                .allTopicNames().get().get(readable).authorizedOperations()).toString());
            step("list acls", () -> admin.describeAcls(org.apache.kafka.common.acl.AclBindingFilter.ANY).values().get().size() + " acls");
        }
    }

    static String consume(Properties base, String topic, String group) {
        Properties c = (Properties) base.clone();
        c.put("group.id", group);
        c.put("auto.offset.reset", "earliest");
        try (Consumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            List<String> seen = new ArrayList<>();
            long deadline = System.currentTimeMillis() + 30_000;
            while (seen.isEmpty() && System.currentTimeMillis() < deadline) for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) seen.add(r.value());
            consumer.commitSync();
            return "read " + seen;
        }
    }

    static String produce(Properties base, String topic, String transactionalId) throws Exception {
        Properties p = (Properties) base.clone();
        p.put("max.block.ms", "10000");
        p.put("delivery.timeout.ms", "10000");
        p.put("request.timeout.ms", "5000");
        if (transactionalId != null) p.put("transactional.id", transactionalId);
        try (Producer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            if (transactionalId != null) producer.initTransactions();
            producer.send(new ProducerRecord<>(topic, "from java")).get();
            return "produced";
        }
    }
}
