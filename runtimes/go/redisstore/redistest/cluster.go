package redistest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cluster is a Redis Cluster of masters without replicas, each a Server.
type Cluster struct {
	Nodes []*Server
	t     testing.TB
}

// StartCluster runs n redis-servers in cluster mode (node timeout 2 s) and
// joins them with redis-cli --cluster create ($REDIS_CLI, else redis-cli
// on PATH), the slots split evenly; it waits until every node reports
// cluster_state:ok.
func StartCluster(t testing.TB, n int) *Cluster {
	t.Helper()
	c := &Cluster{t: t}
	args := []string{"create"}
	for range n {
		s := StartWith(t, Config{Args: []string{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000"}})
		c.Nodes = append(c.Nodes, s)
		args = append(args, s.Addr)
	}
	cli := os.Getenv("REDIS_CLI")
	if cli == "" {
		cli = "redis-cli"
	}
	out, err := exec.Command(cli, append([]string{"--cluster"}, append(args, "--cluster-replicas", "0", "--cluster-yes")...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, s := range c.Nodes {
		node := s.Client(nil)
		for {
			info, err := node.ClusterInfo(context.Background()).Result()
			if err == nil && strings.Contains(info, "cluster_state:ok") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("cluster node %s: not ok within 10 s: %v %s", s.Addr, err, info)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return c
}

// Client returns a cluster client seeded with the first node, closed when
// the test ends.
func (c *Cluster) Client(opts *redis.ClusterOptions) *redis.ClusterClient {
	o := redis.ClusterOptions{}
	if opts != nil {
		o = *opts
	}
	o.Addrs = []string{c.Nodes[0].Addr}
	client := redis.NewClusterClient(&o)
	c.t.Cleanup(func() { client.Close() })
	return client
}
