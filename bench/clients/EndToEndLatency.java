// Produce-to-consume latency at a fixed rate, with Apache Kafka's own Java client on both ends in one JVM
// (one clock): each record carries System.nanoTime() at send; the consumer's poll subtracts it on arrival.
//   EndToEndLatency BOOTSTRAP TOPIC RATE_PER_SEC SECONDS RECORD_SIZE ACKS
// Prints one line: count=N p50_ms=X p99_ms=X p999_ms=X max_ms=X (the first second is warm-up, left out).
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public class EndToEndLatency {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], topic = args[1];
        int rate = Integer.parseInt(args[2]), seconds = Integer.parseInt(args[3]), size = Integer.parseInt(args[4]);
        String acks = args[5];
        long total = (long) rate * seconds, warmup = rate;

        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("key.deserializer", ByteArrayDeserializer.class.getName());
        c.put("value.deserializer", ByteArrayDeserializer.class.getName());
        c.put("enable.auto.commit", "false");
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        p.put("acks", acks);
        p.put("linger.ms", "0");
        p.put("enable.idempotence", "false");

        long[] latencies = new long[(int) total];
        int[] received = {0};
        AtomicBoolean done = new AtomicBoolean(false);
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c); KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            consumer.assign(List.of(partition));
            consumer.seekToEnd(List.of(partition));
            consumer.position(partition); // resolve the end offset before the first record is sent
            Thread reader = new Thread(() -> {
                while (!done.get() && received[0] < total) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                        long sent = ByteBuffer.wrap(record.value()).getLong();
                        if (received[0] < total) latencies[received[0]++] = System.nanoTime() - sent;
                    }
                }
            });
            reader.start();
            byte[] payload = new byte[Math.max(8, size)];
            Arrays.fill(payload, (byte) 'x');
            long interval = 1_000_000_000L / rate, start = System.nanoTime();
            for (long i = 0; i < total; i++) {
                long due = start + i * interval;
                long wait = due - System.nanoTime();
                if (wait > 0) LockSupport.parkNanos(wait);
                byte[] value = payload.clone();
                ByteBuffer.wrap(value).putLong(System.nanoTime());
                producer.send(new ProducerRecord<>(topic, 0, null, value));
            }
            producer.flush();
            reader.join(30_000);
            done.set(true);
            reader.join();
        }
        int n = received[0];
        if (n <= warmup) {
            System.err.println("only " + n + " of " + total + " records arrived");
            System.exit(1);
        }
        long[] measured = Arrays.copyOfRange(latencies, (int) warmup, n);
        Arrays.sort(measured);
        System.out.printf("count=%d lost=%d p50_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f%n", measured.length, total - n,
            at(measured, 50), at(measured, 99), at(measured, 99.9), measured[measured.length - 1] / 1e6);
    }

    private static double at(long[] sorted, double p) {
        int rank = (int) Math.ceil(p / 100 * sorted.length - 1e-9);
        return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] / 1e6;
    }
}
