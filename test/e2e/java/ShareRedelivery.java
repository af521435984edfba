// Kafka 4.3.1's KafkaShareConsumer against a broker: ten records in one batch, every delivery RELEASEd, so each record
// is delivered share.delivery.count.limit (5) times and then archived. Prints each non-empty poll as
// "<offset>:<delivery count> ...": the broker's throttled redelivery decides how many come at once.
//   java -cp '<kafka libs>/*' ShareRedelivery.java <bootstrap> <topic>
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class ShareRedelivery {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], topic = args[1], group = topic;
        Properties a = new Properties();
        a.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(a)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
            AlterConfigOp earliest = new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), List.of(earliest))).all().get();
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("linger.ms", "60000");
        try (Producer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 10; i++) producer.send(new ProducerRecord<>(topic, 0, null, "v" + i));
            producer.flush(); // all ten in one batch
        }
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("group.id", group);
        c.put("share.acknowledgement.mode", "explicit");
        int deliveries = 0;
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            while (deliveries < 50) {
                StringBuilder line = new StringBuilder();
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    line.append(line.length() == 0 ? "" : " ").append(r.offset()).append(':').append(r.deliveryCount().orElse((short) -1));
                    deliveries++;
                    consumer.acknowledge(r, AcknowledgeType.RELEASE);
                }
                if (line.length() > 0) System.out.println(line);
                consumer.commitSync();
            }
        }
    }
}
