import { describe, expect, it } from "vitest";
import {
  credentialsOf,
  reconnectOnReadOnly,
  redisTopology,
  singleRedis,
} from "../../src/redis/topology.js";

/**
 * The one connection factory (issue 31): what each topology and kind of connection is made
 * with. Following a real failover is test/faults/sentinelFailover.test.ts's.
 */
describe("redisTopology", () => {
  it("reads only the password, user and database from REDIS_URL behind Sentinel", () => {
    expect(credentialsOf("redis://:s3cret@ignored-host:6379/3")).toEqual({
      password: "s3cret",
      db: 3,
    });
    expect(credentialsOf("redis://bot:p%40ss@h")).toEqual({
      username: "bot",
      password: "p@ss",
      db: 0,
    });
  });

  it("connects through the sentinels to the named master, following switches and READONLY", () => {
    const topology = redisTopology({
      mode: "sentinel",
      url: "redis://:s3cret@ignored:6379/2",
      sentinels: [
        { host: "s1", port: 26379 },
        { host: "s2", port: 26380 },
      ],
      masterName: "connect-master",
    });
    // "requests" connects only on connect(): nothing is dialled here.
    const redis = topology.connect("requests", "connect:requests");
    try {
      expect(redis.options).toMatchObject({
        sentinels: [
          { host: "s1", port: 26379 },
          { host: "s2", port: 26380 },
        ],
        name: "connect-master",
        role: "master",
        password: "s3cret",
        sentinelPassword: "s3cret",
        db: 2,
        enableOfflineQueue: false,
        connectionName: "connect:requests",
      });
      expect(redis.options.reconnectOnError).toBe(reconnectOnReadOnly);
      // Off on purpose: ioredis 6.0's detector can end a reconnecting connection for good.
      expect(redis.options.failoverDetector).toBeFalsy();
      expect(topology.describe()).toBe('master "connect-master" via sentinels s1:26379,s2:26380');
      expect(topology.describe()).not.toContain("s3cret");
    } finally {
      redis.disconnect();
    }
  });

  it("gives each kind its failure behaviour, in every topology", () => {
    const single = singleRedis("redis://:pw@127.0.0.1:1/0");
    const requests = single.connect("requests");
    try {
      expect(requests.options).toMatchObject({
        maxRetriesPerRequest: 2,
        enableOfflineQueue: false,
      });
      expect(single.describe()).toBe("redis://:***@127.0.0.1:1/0");
    } finally {
      requests.disconnect();
    }
  });

  it("resends a command a demoted master refused, and nothing else", () => {
    expect(
      reconnectOnReadOnly(new Error("READONLY You can't write against a read only replica.")),
    ).toBe(2);
    expect(reconnectOnReadOnly(new Error("ERR wrong number of arguments"))).toBe(false);
  });

  it("makes a cluster client on the seeds for a cluster, never a connection to REDIS_URL's host", () => {
    const cluster = redisTopology({
      mode: "cluster",
      url: "redis://:secret@127.0.0.1:6379",
      nodes: [{ host: "n1", port: 7000 }],
    });
    // A request connection connects on first use: nothing is dialled here.
    const redis = cluster.connect("requests") as unknown as {
      isCluster?: boolean;
      startupNodes: unknown[];
      disconnect(): void;
    };
    try {
      expect(redis.isCluster).toBe(true);
      expect(redis.startupNodes).toEqual([{ host: "n1", port: 7000 }]);
    } finally {
      redis.disconnect();
    }
    expect(cluster.describe()).toBe("cluster seeds n1:7000");
  });
});
