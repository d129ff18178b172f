package dev.headroom.bench;

import dev.headroom.read.wg.NetbirdStatus;
import dev.headroom.read.wg.NetbirdStatusParser;
import dev.headroom.sample.PeerCounterTracker;
import dev.headroom.sample.Traffic;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One answer of {@code netbird status --json} in netstack mode, N peers in NetBird's own field set: parsing it
 * (on the status thread) and folding its per-peer counters into the tunnel's totals (on the sampling thread,
 * once per status interval). Run with {@code -prof gc}.
 *
 * <p>Usage: {@code exporter/src/bench/jmh.sh NetstackBench -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class NetstackBench {
  @Param({"3000"})
  public int peers;

  private String json;
  private NetbirdStatus status;
  private PeerCounterTracker tracker;
  private long now;

  @Setup(Level.Trial)
  public void setUp() {
    StringBuilder b = new StringBuilder("{\"peers\":{\"total\":").append(peers).append(",\"connected\":")
        .append(peers).append(",\"details\":[");
    for (int i = 0; i < peers; i++) {
      if (i > 0) {
        b.append(',');
      }
      // A 44-character base64 key, like WireGuard's.
      String key = String.format(Locale.ROOT, "%043d=", i + 1);
      b.append(String.format(Locale.ROOT, "{\"fqdn\":\"user-%d.netbird.cloud\",\"netbirdIp\":\"100.%d.%d.%d\","
          + "\"publicKey\":\"%s\",\"status\":\"Connected\",\"lastStatusUpdate\":\"2026-12-01T20:00:00.118240557Z\","
          + "\"connectionType\":\"%s\",\"iceCandidateType\":{\"local\":\"host\",\"remote\":\"srflx\"},"
          + "\"iceCandidateEndpoint\":{\"local\":\"10.0.1.20:51820\",\"remote\":\"198.51.100.%d:%d\"},"
          + "\"relayAddress\":\"\",\"lastWireguardHandshake\":\"2026-12-01T20:00:51.702113048Z\","
          + "\"transferReceived\":%d,\"transferSent\":%d,\"latency\":%d,\"quantumResistance\":false,"
          + "\"networks\":[\"10.20.0.0/16\"]}",
          i, 64 + (i >> 16) % 64, (i >> 8) & 255, i & 255, key, i % 10 == 0 ? "Relayed" : "P2P",
          i % 250 + 1, 1024 + i % 60000, 118_734_522L + i, 2_250_381_447L + 7L * i, 18_420_301L + i));
    }
    b.append("]},\"cliVersion\":\"0.60.2\",\"daemonVersion\":\"0.60.2\",\"daemonStatus\":\"Connected\","
        + "\"management\":{\"url\":\"https://api.netbird.io:443\",\"connected\":true,\"error\":\"\"},"
        + "\"signal\":{\"url\":\"https://signal.netbird.io:443\",\"connected\":true,\"error\":\"\"},"
        + "\"relays\":{\"total\":0,\"available\":0,\"details\":[]},\"netbirdIp\":\"100.90.0.1/16\","
        + "\"publicKey\":\"Some-Pub-Key\",\"usesKernelInterface\":false,\"wireguardPort\":51820,"
        + "\"fqdn\":\"router.netbird.cloud\",\"quantumResistance\":false,\"quantumResistancePermissive\":false,"
        + "\"networks\":[\"10.10.0.0/24\"],\"forwardingRules\":0,\"dnsServers\":[],\"events\":[],"
        + "\"lazyConnectionEnabled\":false,\"profileName\":\"default\",\"sshServer\":{\"enabled\":false,\"sessions\":[]}}");
    json = b.toString();
    status = NetbirdStatusParser.parse(json);
    tracker = new PeerCounterTracker(5);
    now = 0;
    tracker.update(status.transfers(), now, 1.25e9);
  }

  /** Parsing one answer: NetBird's JSON to one record per peer (the status thread's share). */
  @Benchmark
  public NetbirdStatus parse() {
    return NetbirdStatusParser.parse(json);
  }

  /** Folding one answer's per-peer counters into the totals and rates, 5 s later (the sampling thread's share). */
  @Benchmark
  public Traffic delta() {
    now += 5_000_000_000L;
    tracker.update(status.transfers(), now, 1.25e9);
    return tracker.snapshot();
  }
}
