// Admin.alterReplicaLogDirs from Apache Kafka 4.3.1's client, one line per replica: "<topic>-<partition> <dir> ok"
// or the exception's class and message. Run as a single-file program:
//   java -cp 'compat-tests/.cache/kafka-4.3.1/libs/*' AlterReplicaLogDirs.java <bootstrap> <broker id> <topic:partition=dir>...
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartitionReplica;

public class AlterReplicaLogDirs {
  public static void main(String[] args) throws Exception {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    int brokerId = Integer.parseInt(args[1]);
    Map<TopicPartitionReplica, String> moves = new LinkedHashMap<>();
    for (int i = 2; i < args.length; i++) {
      String[] move = args[i].split("=", 2);
      int colon = move[0].lastIndexOf(':');
      moves.put(new TopicPartitionReplica(move[0].substring(0, colon), Integer.parseInt(move[0].substring(colon + 1)), brokerId), move[1]);
    }
    try (Admin admin = Admin.create(props)) {
      Map<TopicPartitionReplica, KafkaFuture<Void>> results = admin.alterReplicaLogDirs(moves).values();
      for (Map.Entry<TopicPartitionReplica, String> move : moves.entrySet()) {
        TopicPartitionReplica replica = move.getKey();
        String outcome;
        try {
          results.get(replica).get();
          outcome = "ok";
        } catch (ExecutionException e) {
          outcome = e.getCause().getClass().getSimpleName() + ": " + e.getCause().getMessage();
        }
        System.out.println(replica.topic() + "-" + replica.partition() + " " + outcome);
      }
    }
  }
}
