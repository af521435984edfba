// Kafka 4.3.1's KafkaShareConsumer with share.acquire.mode (ShareFetch v2's share_acquire_mode) against a broker:
// creates a one-partition topic, produces 10 records in one batch, then reads them with one consumer per mode given
// (its own group, share.auto.offset.reset=earliest), max.poll.records=3, acknowledging each poll before the next.
// Prints each non-empty poll as "<mode> <offset>:<delivery count> ...", in order.
//   java -cp '<kafka libs>/*' ShareAcquireMode.java <bootstrap> <topic> <mode>...
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class ShareAcquireMode {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], topic = args[1];
        List<String> modes = Arrays.asList(args).subList(2, args.length);
        Properties a = new Properties();
        a.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(a)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
            for (String mode : modes) {
                AlterConfigOp earliest = new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET);
                admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, topic + "-" + mode), List.of(earliest))).all().get();
            }
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("linger.ms", "60000");
        try (Producer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 10; i++) producer.send(new ProducerRecord<>(topic, 0, null, "v" + i));
            producer.flush(); // all ten in one batch
        }
        for (String mode : modes) {
            Properties c = new Properties();
            c.put("bootstrap.servers", bootstrap);
            c.put("group.id", topic + "-" + mode);
            c.put("share.acknowledgement.mode", "explicit");
            c.put("share.acquire.mode", mode);
            c.put("max.poll.records", "3");
            Set<Long> seen = new TreeSet<>();
            try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of(topic));
                while (seen.size() < 10) {
                    StringBuilder line = new StringBuilder(mode);
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                        line.append(' ').append(r.offset()).append(':').append(r.deliveryCount().orElse((short) -1));
                        seen.add(r.offset());
                        consumer.acknowledge(r, AcknowledgeType.ACCEPT);
                    }
                    if (line.length() > mode.length()) System.out.println(line);
                    consumer.commitSync();
                }
            }
        }
    }
}
