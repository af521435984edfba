// Runs Kafka's own server-side assignors (uniform, range) on the cases read from stdin and prints each result,
// for test/e2e/consumer-group-assignors-java.test.ts to compare with gregor's. Input lines:
//   case <name> <uniform|range>      starts a case (no current assignment)
//   topic <id> <partitions>          the topics of the next run
//   member <id> <instanceId|-> <topicId,...|->   the members of the next run, in group order
//   run                              assigns; each member's current assignment is its result of the previous run,
//                                    as Kafka re-reads it from its target assignment record
// Output per run: "run <case> <n>", then "member <id> <topicId>:<p,...>;..." per member of the result (members
// sorted by id, topics and partitions in the result's iteration order), or "error <message>".
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.*;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.*;
import org.apache.kafka.coordinator.group.assignor.RangeAssignor;
import org.apache.kafka.coordinator.group.assignor.UniformAssignor;
import org.apache.kafka.coordinator.group.modern.Assignment;
import org.apache.kafka.coordinator.group.modern.GroupSpecImpl;
import org.apache.kafka.coordinator.group.modern.MemberSubscriptionAndAssignmentImpl;

public class ConsumerGroupAssignors {
    record Member(String id, Optional<String> instanceId, Set<Uuid> topics) {}

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String caseName = null;
        ConsumerGroupPartitionAssignor assignor = null;
        int runs = 0;
        Map<Uuid, Integer> topics = new LinkedHashMap<>();
        List<Member> members = new ArrayList<>();
        // A member's last result as its record lists it: topics in order, each with its partitions in order.
        Map<String, List<Map.Entry<Uuid, List<Integer>>>> previous = new HashMap<>();
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.split(" ");
            switch (f[0]) {
                case "case" -> {
                    caseName = f[1];
                    assignor = f[2].equals("range") ? new RangeAssignor() : new UniformAssignor();
                    runs = 0;
                    previous.clear();
                }
                case "topic" -> topics.put(Uuid.fromString(f[1]), Integer.parseInt(f[2]));
                case "member" -> {
                    Set<Uuid> subscribed = new LinkedHashSet<>();
                    if (!f[3].equals("-")) for (String t : f[3].split(",")) subscribed.add(Uuid.fromString(t));
                    members.add(new Member(f[1], f[2].equals("-") ? Optional.empty() : Optional.of(f[2]), subscribed));
                }
                case "run" -> {
                    System.out.println("run " + caseName + " " + runs++);
                    run(assignor, topics, members, previous);
                    topics.clear();
                    members.clear();
                }
                default -> throw new IllegalArgumentException(line);
            }
        }
    }

    static void run(ConsumerGroupPartitionAssignor assignor, Map<Uuid, Integer> topics, List<Member> members,
                    Map<String, List<Map.Entry<Uuid, List<Integer>>>> previous) {
        Map<String, MemberSubscriptionAndAssignmentImpl> specs = new LinkedHashMap<>();
        Map<Uuid, Map<Integer, String>> owners = new HashMap<>();
        Set<Set<Uuid>> subscriptions = new HashSet<>();
        for (Member m : members) {
            // As Assignment.fromRecord rebuilds it.
            Map<Uuid, Set<Integer>> current = new HashMap<>();
            for (Map.Entry<Uuid, List<Integer>> e : previous.getOrDefault(m.id(), List.of())) {
                current.put(e.getKey(), new HashSet<>(e.getValue()));
                for (int p : e.getValue()) owners.computeIfAbsent(e.getKey(), k -> new HashMap<>()).put(p, m.id());
            }
            specs.put(m.id(), new MemberSubscriptionAndAssignmentImpl(Optional.empty(), m.instanceId(), m.topics(), new Assignment(current)));
            subscriptions.add(new HashSet<>(m.topics()));
        }
        SubscriptionType type = subscriptions.size() <= 1 ? SubscriptionType.HOMOGENEOUS : SubscriptionType.HETEROGENEOUS;
        SubscribedTopicDescriber describer = new SubscribedTopicDescriber() {
            public int numPartitions(Uuid topicId) { return topics.getOrDefault(topicId, -1); }
            public Set<String> racksForPartition(Uuid topicId, int partition) { return Set.of(); }
        };
        Map<String, List<Map.Entry<Uuid, List<Integer>>>> next = new HashMap<>();
        try {
            GroupAssignment result = assignor.assign(new GroupSpecImpl(specs, type, owners), describer);
            for (String id : new TreeSet<>(result.members().keySet())) {
                List<Map.Entry<Uuid, List<Integer>>> listed = new ArrayList<>();
                StringBuilder out = new StringBuilder("member " + id + " ");
                for (Map.Entry<Uuid, Set<Integer>> e : result.members().get(id).partitions().entrySet()) {
                    List<Integer> partitions = new ArrayList<>(e.getValue());
                    listed.add(Map.entry(e.getKey(), partitions));
                    out.append(e.getKey()).append(':');
                    StringJoiner joined = new StringJoiner(",");
                    for (int p : partitions) joined.add(Integer.toString(p));
                    out.append(joined).append(';');
                }
                next.put(id, listed);
                System.out.println(out);
            }
            previous.clear();
            previous.putAll(next);
        } catch (PartitionAssignorException e) {
            System.out.println("error " + e.getMessage());
        }
    }
}
