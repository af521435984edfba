// Sarama consumer-group scenarios: rebalancing, commit and resume, offset reset with the stock tool, two groups,
// a broker restart in the middle.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"

	"github.com/IBM/sarama"
)

// member is one group member; its assignment as Setup reports it.
type member struct {
	mu         sync.Mutex
	assignment []int32
	cancel     context.CancelFunc
	done       chan struct{}
	failure    error
}

func (m *member) Setup(session sarama.ConsumerGroupSession) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.assignment = append([]int32(nil), session.Claims()[topicOf(session)]...)
	return nil
}
func (m *member) Cleanup(sarama.ConsumerGroupSession) error { return nil }
func (m *member) ConsumeClaim(session sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for range claim.Messages() {
	}
	return nil
}

func topicOf(session sarama.ConsumerGroupSession) string {
	for topic := range session.Claims() {
		return topic
	}
	return ""
}

func (m *member) size() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.assignment)
}

func runMember(ctx context.Context, group, topic string, m *member) {
	c := config()
	c.Consumer.Group.Session.Timeout = sessionTimeout
	c.Consumer.Group.Heartbeat.Interval = 500 * 1e6
	consumerGroup, err := sarama.NewConsumerGroup([]string{bootstrap}, group, c)
	if err != nil {
		m.failure = err
		return
	}
	for ctx.Err() == nil {
		if err := consumerGroup.Consume(ctx, []string{topic}, m); err != nil && ctx.Err() == nil {
			m.failure = err
			break
		}
	}
	consumerGroup.Close() // a clean leave: LeaveGroup
}

func startMember(group, topic string) *member {
	ctx, cancel := context.WithCancel(context.Background())
	m := &member{cancel: cancel, done: make(chan struct{})}
	go func() {
		runMember(ctx, group, topic, m)
		close(m.done)
	}()
	return m
}

func (m *member) stop() {
	m.cancel()
	<-m.done
}

func groupRebalance() error {
	topic, group := prefix+"topic", prefix+"group"
	if err := create(topic, 6); err != nil {
		return err
	}
	adm, err := admin()
	if err != nil {
		return err
	}
	defer adm.Close()
	steps := map[string]any{}
	settle := func(step string, live []*member, sizes []int, total int) error {
		var state string
		err := eventually(fmt.Sprintf("%s: sizes %v", step, sizes), func() error {
			var have []int
			for _, m := range live {
				if m.failure != nil {
					return fmt.Errorf("member failed: %w", m.failure)
				}
				have = append(have, m.size())
			}
			sort.Ints(have)
			if fmt.Sprint(have) != fmt.Sprint(sizes) {
				return fmt.Errorf("sizes %v", have)
			}
			described, err := adm.DescribeConsumerGroups([]string{group})
			if err != nil {
				return err
			}
			if described[0].State != "Stable" || len(described[0].Members) != total {
				return fmt.Errorf("state %s with %d members", described[0].State, len(described[0].Members))
			}
			state = described[0].State
			return nil
		})
		steps[step] = map[string]any{"sizes": sizes, "state": state, "members": total}
		return err
	}
	var members []*member
	defer func() {
		for _, m := range members {
			m.stop()
		}
	}()
	a := startMember(group, topic)
	members = append(members, a)
	if err := settle("one", []*member{a}, []int{6}, 1); err != nil {
		return err
	}
	b := startMember(group, topic)
	members = append(members, b)
	if err := settle("two", []*member{a, b}, []int{3, 3}, 2); err != nil {
		return err
	}
	c := startMember(group, topic)
	if err := settle("three", []*member{a, b, c}, []int{2, 2, 2}, 3); err != nil {
		c.stop()
		return err
	}
	c.stop()
	if err := settle("after-leave", []*member{a, b}, []int{3, 3}, 2); err != nil {
		return err
	}
	// A member in a process of its own, killed: no LeaveGroup, the coordinator notices when its session times out.
	crasher := exec.Command(os.Args[0], "member", bootstrap, group, topic)
	crasher.Stderr = os.Stderr
	if err := crasher.Start(); err != nil {
		return err
	}
	defer crasher.Process.Kill()
	if err := settle("rejoin", []*member{a, b}, []int{2, 2}, 3); err != nil {
		return err
	}
	crasher.Process.Kill()
	crasher.Wait()
	if err := settle("after-crash", []*member{a, b}, []int{3, 3}, 2); err != nil {
		return err
	}
	observe("steps", steps)
	return nil
}

func commitResume() error {
	topic, group := prefix+"topic", prefix+"group"
	if err := create(topic, 1); err != nil {
		return err
	}
	if _, err := produceNumbered(topic, 0, 10); err != nil {
		return err
	}
	adm, err := admin()
	if err != nil {
		return err
	}
	defer adm.Close()
	before, err := committed(adm, group, topic)
	if err != nil {
		return err
	}
	observe("committed-before", before)
	// Everything received is committed: reading up to offset 4 commits 5.
	if _, err := readGroup(group, topic, nil, reaches(4)); err != nil {
		return err
	}
	offset, err := committed(adm, group, topic)
	if err != nil {
		return err
	}
	if err := same(5, offset, "committed"); err != nil {
		return err
	}
	resumed, err := readGroup(group, topic, nil, reaches(9))
	if err != nil {
		return err
	}
	if err := same(numbered(5, 5), values(resumed), "resumed"); err != nil {
		return err
	}
	observe("resumed", positions(resumed))
	after, err := committed(adm, group, topic)
	if err != nil {
		return err
	}
	observe("committed-after", after)
	return nil
}

// resetOffsets runs kafka-consumer-groups --reset-offsets ... --execute and returns "partition:new-offset" rows.
func resetOffsets(group, topic string, how ...string) ([]string, error) {
	args := append([]string{"--bootstrap-server", bootstrap, "--group", group, "--topic", topic, "--reset-offsets"}, how...)
	output, err := exec.Command(os.Getenv("COMPAT_BIN_DIR")+"/kafka-consumer-groups", append(args, "--execute")...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("kafka-consumer-groups: %v: %s", err, output)
	}
	var rows []string
	for _, line := range strings.Split(string(output), "\n") {
		fields := strings.Fields(line)
		if len(fields) >= 4 && fields[0] == group && fields[1] == topic {
			rows = append(rows, fields[2]+":"+fields[3])
		}
	}
	return rows, nil
}

func offsetReset() error {
	topic, group := prefix+"topic", prefix+"group"
	if err := create(topic, 1); err != nil {
		return err
	}
	if _, err := produceNumbered(topic, 0, 10); err != nil {
		return err
	}
	if _, err := readGroup(group, topic, nil, atLeast(10)); err != nil {
		return err
	}
	table, err := resetOffsets(group, topic, "--to-offset", "3")
	if err != nil {
		return err
	}
	if err := same([]string{"0:3"}, table, "the tool's table"); err != nil {
		return err
	}
	resumed, err := readGroup(group, topic, nil, reaches(9))
	if err != nil {
		return err
	}
	if err := same(numbered(3, 7), values(resumed), "resumed"); err != nil {
		return err
	}
	earliest, err := resetOffsets(group, topic, "--to-earliest")
	if err != nil {
		return err
	}
	observe("tool", map[string][]string{"toOffset": table, "toEarliest": earliest})
	observe("resumed", positions(resumed))
	return nil
}

func twoGroups() error {
	topic := prefix + "topic"
	if err := create(topic, 2); err != nil {
		return err
	}
	p, err := producer(func(c *sarama.Config) { c.Producer.Partitioner = sarama.NewHashPartitioner })
	if err != nil {
		return err
	}
	for i := 0; i < 10; i++ {
		if _, _, err := p.SendMessage(&sarama.ProducerMessage{Topic: topic, Key: sarama.StringEncoder(fmt.Sprintf("key-%d", i)),
			Value: sarama.StringEncoder(fmt.Sprintf("m%d", i))}); err != nil {
			p.Close()
			return err
		}
	}
	p.Close()
	placement := func(group string) ([]string, error) {
		received, err := readGroup(group, topic, nil, atLeast(10))
		if err != nil {
			return nil, err
		}
		var out []string
		for _, r := range received {
			out = append(out, fmt.Sprintf("%d:%d:%s", r.Partition, r.Offset, r.Value))
		}
		sort.Strings(out)
		return out, nil
	}
	first, err := placement(prefix + "first")
	if err != nil {
		return err
	}
	second, err := placement(prefix + "second")
	if err != nil {
		return err
	}
	if err := same(first, second, "both groups read the same"); err != nil {
		return err
	}
	observe("placement", first)
	return nil
}

func brokerRestartBefore() error {
	topic := prefix + "topic"
	if err := create(topic, 1); err != nil {
		return err
	}
	if _, err := produceNumbered(topic, 0, 5); err != nil {
		return err
	}
	_, err := readGroup(prefix+"group", topic, nil, atLeast(5))
	return err
}

func brokerRestartAfter() error {
	topic, group := prefix+"topic", prefix+"group"
	adm, err := admin()
	if err != nil {
		return err
	}
	defer adm.Close()
	// The coordinator answers COORDINATOR_LOAD_IN_PROGRESS until it has loaded its offsets again.
	if err := eventually("the committed offset", func() error {
		offset, err := committed(adm, group, topic)
		if err != nil {
			return err
		}
		return same(5, offset, "committed")
	}); err != nil {
		return err
	}
	offsets, err := produceNumbered(topic, 5, 5)
	if err != nil {
		return err
	}
	if err := same([]int64{5, 6, 7, 8, 9}, offsets, "offsets after the restart"); err != nil {
		return err
	}
	resumed, err := readGroup(group, topic, nil, reaches(9))
	if err != nil {
		return err
	}
	if err := same(numbered(5, 5), values(resumed), "resumed"); err != nil {
		return err
	}
	everything, err := readGroup(prefix+"all", topic, nil, atLeast(10))
	if err != nil {
		return err
	}
	if err := same(numbered(0, 10), values(everything), "everything"); err != nil {
		return err
	}
	observe("resumed", positions(resumed))
	return nil
}
