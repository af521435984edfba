// Kafka 4.3.1's KafkaShareConsumer through an injected NOT_LEADER_OR_FOLLOWER on one partition of its share fetches
// (test/e2e/faults-clients.test.ts): the rule is added over gregor's HTTP API, the consumer reads the other
// partition meanwhile, the rule is removed, and the faulted partition's records arrive.
//   java -cp '<kafka libs>/*' ShareFaults.java <bootstrap> <http base> <topic> <group> <records per partition>
// Creates the two-partition topic, sets the group's share.auto.offset.reset=earliest, produces r0-0.. and r1-0.., adds
// the rule (ShareFetch, partition 1), reads with implicit acknowledgement until partition 0 is read and the rule has
// fired for 2 s, prints "faulted <records of partition 1 seen so far>", removes the rules, reads on until partition 1
// is read, and prints "got <partition> <offset> <value> <delivery count>" per record received, in order received.
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.clients.producer.*;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class ShareFaults {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], http = args[1], topic = args[2], group = args[3];
        int records = Integer.parseInt(args[4]);
        Properties a = new Properties();
        a.put("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(a)) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group),
                List.of(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET)))).all().get();
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        try (Producer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (int partition = 0; partition < 2; partition++)
                for (int i = 0; i < records; i++) producer.send(new ProducerRecord<>(topic, partition, null, "r" + partition + "-" + i));
            producer.flush();
        }
        HttpClient client = HttpClient.newHttpClient();
        call(client, "POST", http + "/v1/faults",
            "{\"api\":\"ShareFetch\",\"topic\":\"" + topic + "\",\"partition\":1,\"action\":\"error\",\"error\":\"NOT_LEADER_OR_FOLLOWER\"}");

        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("group.id", group);
        c.put("client.id", "share-faults-java");
        StringBuilder out = new StringBuilder();
        int[] seen = new int[2];
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long firstDone = 0;
            long deadline = System.currentTimeMillis() + 120_000;
            while (firstDone == 0 || System.currentTimeMillis() - firstDone < 2_000) {
                poll(consumer, out, seen);
                if (firstDone == 0 && seen[0] >= records) firstDone = System.currentTimeMillis();
                if (System.currentTimeMillis() > deadline) throw new IllegalStateException("partition 0 not read: " + out);
            }
            out.append("faulted ").append(seen[1]).append('\n');
            call(client, "DELETE", http + "/v1/faults", null);
            while (seen[1] < records) {
                poll(consumer, out, seen);
                if (System.currentTimeMillis() > deadline) throw new IllegalStateException("partition 1 not read: " + out);
            }
            // A moment more: a record delivered twice would come now.
            long end = System.currentTimeMillis() + 1_000;
            while (System.currentTimeMillis() < end) poll(consumer, out, seen);
        }
        System.out.print(out);
    }

    static void poll(KafkaShareConsumer<String, String> consumer, StringBuilder out, int[] seen) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
            seen[r.partition()]++;
            out.append("got ").append(r.partition()).append(' ').append(r.offset()).append(' ').append(r.value()).append(' ')
                .append(r.deliveryCount().orElse((short) -1)).append('\n');
        }
    }

    static void call(HttpClient client, String method, String url, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        if (body == null) request.method(method, HttpRequest.BodyPublishers.noBody());
        else request.header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) throw new IllegalStateException(method + " " + url + ": " + response.statusCode() + " " + response.body());
    }
}
