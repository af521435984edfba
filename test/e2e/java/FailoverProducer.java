// Kafka 4.3.1's Java producer, idempotent with acks=all, writing "<prefix><i>" to partition 0 of a topic, one record
// every 10 ms, until the stop file exists; it creates the started file once its first record is acknowledged. Then it
// flushes and prints every acknowledged value, one a line, in the order of their acknowledgements.
//   java -cp '<kafka libs>/*' FailoverProducer.java <bootstrap> <topic> <prefix> <started-file> <stop-file>
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.serialization.StringSerializer;

public class FailoverProducer {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], topic = args[1], prefix = args[2];
        Path started = Paths.get(args[3]), stop = Paths.get(args[4]);
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("linger.ms", "0");
        p.put("delivery.timeout.ms", "120000");
        p.put("request.timeout.ms", "10000");
        List<String> acked = Collections.synchronizedList(new ArrayList<>());
        List<String> failed = Collections.synchronizedList(new ArrayList<>());
        try (Producer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; !Files.exists(stop); i++) {
                String value = prefix + i;
                producer.send(new ProducerRecord<>(topic, 0, null, value), (metadata, error) -> {
                    if (error != null) failed.add(value + " " + error);
                    else {
                        acked.add(value);
                        if (acked.size() == 1) {
                            try { Files.createFile(started); } catch (Exception e) { throw new RuntimeException(e); }
                        }
                    }
                });
                Thread.sleep(10);
            }
            producer.flush();
        }
        for (String f : failed) System.err.println("failed " + f);
        StringBuilder out = new StringBuilder();
        for (String v : acked) out.append(v).append('\n');
        System.out.print(out);
    }
}
