// Kafka 4.3.1's KafkaShareConsumer for issue 18's "Done when" and the broker restart (test/e2e/share-done-when-java.test.ts,
// test/e2e/share-restart-java.test.ts): one consumer per JVM, so that the test can SIGKILL one; it prints what it
// saw, one fact a line, and the test puts the consumers' lines together.
//   java -cp '<kafka libs>/*' ShareDoneWhen.java setup <bootstrap> <topic> <group> <records> [key=value...]
//     creates the one-partition topic, sets the group's configs (share.auto.offset.reset=earliest and those given)
//     and produces <records> records v0, v1, ...
//   java -cp '<kafka libs>/*' ShareDoneWhen.java consume <bootstrap> <topic> <group> <client-id> [hold=N] [ackFirst=M]
//     reads with explicit acknowledgement: "got <offset> <delivery count>" per record received, ACCEPTs them, and
//     once commitSync answers "acked <offset> <delivery count>" per record acknowledged ("refused <offset> <error>"
//     if the broker refused it). With hold=N, at the N-th poll that returns records it ACCEPTs only the first M
//     (commitSync), prints "holding <first> <last>" (the records it keeps acquired, unacknowledged) and waits to be
//     killed. Ends (closing the consumer) when stdin reads "stop" or ends.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class ShareDoneWhen {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[1], topic = args[2], group = args[3];
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 5; i < args.length; i++) options.put(args[i].split("=", 2)[0], args[i].split("=", 2)[1]);
        if (args[0].equals("setup")) setUp(bootstrap, topic, group, Integer.parseInt(args[4]), options);
        else consume(bootstrap, topic, group, args[4], Integer.parseInt(options.getOrDefault("hold", "0")), Integer.parseInt(options.getOrDefault("ackFirst", "0")));
    }

    static void setUp(String bootstrap, String topic, String group, int records, Map<String, String> configs) throws Exception {
        Properties a = new Properties();
        a.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(a)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
            List<AlterConfigOp> ops = new ArrayList<>();
            ops.add(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET));
            configs.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), ops)).all().get();
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("linger.ms", "5");
        try (Producer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < records; i++) producer.send(new ProducerRecord<>(topic, 0, null, "v" + i));
            producer.flush();
        }
    }

    static void consume(String bootstrap, String topic, String group, String clientId, int hold, int ackFirst) throws Exception {
        AtomicBoolean stop = new AtomicBoolean(false);
        Thread stdin = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
                String line;
                while ((line = in.readLine()) != null && !line.trim().equals("stop")) { }
            } catch (Exception e) { }
            stop.set(true);
        });
        stdin.setDaemon(true);
        stdin.start();
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("group.id", group);
        c.put("client.id", clientId);
        c.put("share.acknowledgement.mode", "explicit");
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            int polls = 0;
            while (!stop.get()) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) continue;
                polls++;
                StringBuilder out = new StringBuilder();
                List<ConsumerRecord<String, String>> accepted = new ArrayList<>();
                for (ConsumerRecord<String, String> r : records) {
                    out.append("got ").append(r.offset()).append(' ').append(deliveries(r)).append('\n');
                    if (polls != hold || accepted.size() < ackFirst) {
                        consumer.acknowledge(r, AcknowledgeType.ACCEPT);
                        accepted.add(r);
                    }
                }
                Map<TopicIdPartition, Optional<KafkaException>> committed = consumer.commitSync();
                for (ConsumerRecord<String, String> r : accepted) {
                    Optional<KafkaException> error = committed.entrySet().stream().filter(e -> e.getKey().partition() == r.partition()).map(Map.Entry::getValue).findFirst().orElse(Optional.empty());
                    if (error.isPresent()) out.append("refused ").append(r.offset()).append(' ').append(error.get().getClass().getSimpleName()).append('\n');
                    else out.append("acked ").append(r.offset()).append(' ').append(deliveries(r)).append('\n');
                }
                if (polls == hold) {
                    List<ConsumerRecord<String, String>> all = new ArrayList<>();
                    records.forEach(all::add);
                    List<ConsumerRecord<String, String>> kept = all.subList(accepted.size(), all.size());
                    if (kept.isEmpty()) out.append("holding none\n");
                    else out.append("holding ").append(kept.get(0).offset()).append(' ').append(kept.get(kept.size() - 1).offset()).append('\n');
                }
                System.out.print(out);
                System.out.flush();
                if (polls == hold) Thread.sleep(Long.MAX_VALUE);
            }
        }
        System.out.println("closed");
    }

    static short deliveries(ConsumerRecord<String, String> r) {
        return r.deliveryCount().orElse((short) -1);
    }
}
