// Kafka 4.3.1's Java producer sending `count` records of `size` bytes as fast as its broker lets it, one request in
// flight (so a request acknowledged after another was sent, and accepted, after that one's acknowledgement). Prints
// one line per acknowledgement, "<ms since start> <bytes>", then "throttle-max <ms>" from the producer's
// produce-throttle-time-max metric (what the broker's throttle_time_ms told it).
//   java -cp '<kafka libs>/*' QuotaHeldProducer.java <bootstrap> <topic> <client-id> <count> <size>
import java.util.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public class QuotaHeldProducer {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], topic = args[1], clientId = args[2];
        int count = Integer.parseInt(args[3]), size = Integer.parseInt(args[4]);
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("client.id", clientId);
        p.put("acks", "1");
        p.put("linger.ms", "0");
        p.put("max.in.flight.requests.per.connection", "1");
        p.put("batch.size", String.valueOf(size + 1024));
        p.put("max.request.size", String.valueOf(size + 4096));
        byte[] value = new byte[size];
        StringBuilder out = new StringBuilder();
        try (Producer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.partitionsFor(topic);
            long start = System.nanoTime();
            out.append("0 0\n");
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, value)).get();
                out.append((System.nanoTime() - start) / 1e6).append(' ').append(size).append('\n');
            }
            double throttleMax = producer.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("produce-throttle-time-max") && e.getKey().group().equals("producer-metrics"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).findFirst().orElse(-1);
            out.append("throttle-max ").append(throttleMax).append('\n');
        }
        System.out.print(out);
    }
}
