// The KIP-848 consumer group protocol's scenarios (kgo.ServerSideBalancer with the default cooperative-sticky
// balancer, which franz-go maps to the broker's uniform assignor). Under this protocol the member's session timeout
// and heartbeat interval are the broker's: runner/consumer-protocol.ts gives 6 s and 500 ms.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sort"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// consumerMember is a consumer-protocol member's options; instance is its group.instance.id ("" for none).
func consumerMember(instance string) []kgo.Opt {
	opts := []kgo.Opt{kgo.ServerSideBalancer()}
	if instance != "" {
		opts = append(opts, kgo.InstanceID(instance))
	}
	return opts
}

func (m *member) held() map[int32]bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	held := map[int32]bool{}
	for p := range m.assignment {
		held[p] = true
	}
	return held
}

// consumerSettler waits until the members hold partitions of these sizes (all six when every member is live) and
// ConsumerGroupDescribe says Stable with total members; each step records the group's state and epochs (counted
// from the first step's).
func consumerSettler(ctx context.Context, adm *kadm.Client, group string, steps map[string]any) func(string, []*member, []int, int) error {
	base := new(int32)
	return func(step string, live []*member, sizes []int, total int) error {
		var described kadm.DescribedConsumerGroup
		err := eventually(ctx, fmt.Sprintf("%s: sizes %v", step, sizes), func() error {
			var have []int
			union := map[int32]bool{}
			for _, m := range live {
				if m.failure != nil {
					return m.failure
				}
				for p := range m.held() {
					union[p] = true
				}
				have = append(have, m.size())
			}
			sort.Ints(have)
			if err := same(sizes, have, "sizes"); err != nil {
				return err
			}
			if total == len(live) && len(union) != 6 {
				return fmt.Errorf("%d partitions held", len(union))
			}
			groups, err := adm.DescribeConsumerGroups(ctx, group)
			if err != nil {
				return err
			}
			described = groups[group]
			if described.Err != nil {
				return described.Err
			}
			if described.State != "Stable" || len(described.Members) != total {
				return fmt.Errorf("state %s with %d members", described.State, len(described.Members))
			}
			return nil
		})
		// Epochs counted from the first step's: how soon the first heartbeat follows the topic's creation decides
		// whether Kafka's coordinator already sees the topic (one bump more or less), and franz-go starts fast.
		if *base == 0 {
			*base = described.Epoch
		}
		var epochs []int
		for _, m := range described.Members {
			epochs = append(epochs, int(m.MemberEpoch-*base))
		}
		sort.Ints(epochs)
		steps[step] = map[string]any{"sizes": sizes, "state": described.State, "members": total, "assignor": described.AssignorName,
			"groupEpochSinceFirst": described.Epoch - *base, "assignmentEpochSinceFirst": described.AssignmentEpoch - *base,
			"memberEpochsSinceFirst": epochs}
		return err
	}
}

// sixPartitions creates the scenario's six-partition topic and an admin client (the caller closes it).
func sixPartitions(ctx context.Context, bootstrap, prefix string) (topic, group string, client *kgo.Client, adm *kadm.Client, err error) {
	topic, group = prefix+"topic", prefix+"group"
	if err = create(ctx, bootstrap, topic, 6, nil); err != nil {
		return
	}
	client, adm, err = admin(bootstrap)
	return
}

func consumerGroupRebalance(ctx context.Context, bootstrap, prefix string) error {
	topic, group, client, adm, err := sixPartitions(ctx, bootstrap, prefix)
	if err != nil {
		return err
	}
	defer client.Close()
	steps := map[string]any{}
	if err := rebalanceSteps(consumerSettler(ctx, adm, group, steps),
		func() (*member, func()) { return startMember(bootstrap, group, topic, consumerMember("")) },
		[]string{"consumer-member", bootstrap, group, topic}); err != nil {
		return err
	}
	observe("steps", steps)
	return nil
}

// consumerCommitResume is commit-resume under the consumer protocol (OffsetCommit with the member's epoch); the
// group is Empty once the first member has left.
func consumerCommitResume(ctx context.Context, bootstrap, prefix string) error {
	return commitResumeWith(ctx, bootstrap, prefix, consumerMember(""), func(adm *kadm.Client, group string) error {
		groups, err := adm.DescribeConsumerGroups(ctx, group)
		if err != nil {
			return err
		}
		observe("after-leave", map[string]any{"state": groups[group].State, "members": len(groups[group].Members)})
		return nil
	})
}

// consumerStaticMembers: franz-go's leave heartbeat (epoch -2) carries no instance id, so Kafka removes a static
// member that closes as it removes a dynamic one (instance-c). A killed static member (instance-b, a process of its
// own) keeps its partitions for its session; restarted at once, the new instance-b is refused (UNRELEASED_INSTANCE_ID,
// which franz-go retries) until the old one's session ends, then joins: the group epoch tells these steps apart.
func consumerStaticMembers(ctx context.Context, bootstrap, prefix string) error {
	topic, group, client, adm, err := sixPartitions(ctx, bootstrap, prefix)
	if err != nil {
		return err
	}
	defer client.Close()
	steps := map[string]any{}
	settle := consumerSettler(ctx, adm, group, steps)
	a, stopA := startMember(bootstrap, group, topic, consumerMember("instance-a"))
	defer stopA()
	if err := settle("one", []*member{a}, []int{6}, 1); err != nil {
		return err
	}
	memberIDOfB := func() (string, error) {
		groups, err := adm.DescribeConsumerGroups(ctx, group)
		if err != nil {
			return "", err
		}
		for _, m := range groups[group].Members {
			if m.InstanceID != nil && *m.InstanceID == "instance-b" {
				return m.MemberID, nil
			}
		}
		return "", fmt.Errorf("instance-b is not in the group")
	}
	startB := func() (*exec.Cmd, error) {
		process := exec.Command(os.Args[0], "consumer-member", bootstrap, group, topic, "instance-b")
		process.Stderr = os.Stderr
		return process, process.Start()
	}
	b, err := startB()
	if err != nil {
		return err
	}
	defer b.Process.Kill()
	if err := settle("two", []*member{a}, []int{3}, 2); err != nil {
		return err
	}
	firstB, err := memberIDOfB()
	if err != nil {
		return err
	}
	b.Process.Kill()
	b.Wait()
	b2, err := startB()
	if err != nil {
		return err
	}
	defer b2.Process.Kill()
	err = eventually(ctx, "the restarted instance-b in the group", func() error {
		id, err := memberIDOfB()
		if err == nil && id == firstB {
			return fmt.Errorf("instance-b not back yet")
		}
		return err
	})
	if err != nil {
		return err
	}
	if err := settle("b-restarted", []*member{a}, []int{3}, 2); err != nil {
		return err
	}
	c, stopC := startMember(bootstrap, group, topic, consumerMember("instance-c"))
	if err := settle("three", []*member{a, c}, []int{2, 2}, 3); err != nil {
		stopC()
		return err
	}
	stopC()
	if err := settle("c-closed", []*member{a}, []int{3}, 2); err != nil {
		return err
	}
	b2.Process.Kill()
	b2.Wait()
	if err := settle("b-expired", []*member{a}, []int{6}, 1); err != nil {
		return err
	}
	observe("steps", steps)
	return nil
}
