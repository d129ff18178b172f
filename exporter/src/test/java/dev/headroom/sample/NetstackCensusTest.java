package dev.headroom.sample;

import dev.headroom.config.Config;
import dev.headroom.config.TestConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.Datapath;
import dev.headroom.read.ProcStatCpuSource;
import dev.headroom.read.wg.NetbirdStatusParser;
import dev.headroom.read.wg.PeerTransfer;
import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.testing.FakeClock;
import dev.headroom.testing.FixtureTree;
import dev.headroom.testing.NetbirdJson;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The census of a netstack peer, from the same NetBird status answers as its throughput. */
class NetstackCensusTest {
  private static final long S = 1_000_000_000L;
  // WireGuard keys as NetBird prints them (base64 of 32 bytes).
  private static final String ANA = "Ab3xQ0n8m2VdQ7s0YpFz2wqK3v9LhT1uN6cR4eJ5oGk=";
  private static final String BO = "Kq2m8Vx3cJ1dR0tYpZ7hW5nL9sB4gF6eA2uQ8iO1kTw=";
  private static final String CY = "Zp0oN7yX2wV4uT6sR8qP1oN3mL5kJ7iH9gF1eD3cB5a=";

  @TempDir Path dir;

  @Test
  void eachAnswerIsOneCensusTimedWhenNetbirdReadTheCounters() {
    FixtureTree t = FixtureTree.copy("userspace", dir.resolve("peer"));
    t.removeInterface("wt0");
    FakeClock clock = new FakeClock();
    Deque<String> answers = new ArrayDeque<>();
    NetstackCollector netstack = new NetstackCollector(() -> NetbirdStatusParser.parse(answers.removeFirst()),
        Runnable::run, 5 * S, 0, 5 * S, clock);
    Config settings = TestConfig.fixture(t.sys(), t.proc(), "--sample.peak-window=60s", "--datapath.process=netbird",
        "--census.interval=5s", "--path.rundir=" + dir.resolve("run"));
    Sampler sampler = new Sampler(settings, new ProcStatCpuSource(t.sys(), t.proc()), clock, () -> 1_764_460_800_000L,
        Runnable::run, netstack);

    answers.add(NetbirdJson.netstack(NetbirdJson.peer(ANA, 0, 0), NetbirdJson.peer(BO, 0, 0), NetbirdJson.idle(CY)));
    Sample s = sampler.sample();
    assertEquals(Datapath.NETSTACK, s.datapath());
    // Ana pulls 50 MB in 5 s, Bo 1 MB; Cy stays idle.
    answers.add(NetbirdJson.netstack(NetbirdJson.peer(ANA, 1_000_000, 50_000_000), NetbirdJson.peer(BO, 100_000, 1_000_000),
        NetbirdJson.idle(CY)));
    for (int i = 0; i < 5; i++) {
      clock.advanceSeconds(1);
      s = sampler.sample();
    }
    CensusSnapshot c = s.census();
    assertNotNull(c);
    assertEquals(3, c.tunnels());
    assertEquals(2, c.active());
    assertEquals(5.0, c.intervalSeconds(), 1e-9);
    assertEquals(50_000_000 / 5.0, c.direction(Direction.DOWNLOAD).hottestBytesPerSecond(), 1e-6);
    assertEquals(51_000_000 / 5.0, c.direction(Direction.DOWNLOAD).totalBytesPerSecond(), 1e-6);
    assertEquals("Ab3xQ0n8\u2026", c.topTalkers().get(0).key()); // shown as NetBird prints it, cut
    assertEquals("peer-1.awesome-domain.com", c.topTalkers().get(0).shownName()); // and named as NetBird names it
    assertEquals(dev.headroom.read.wg.Connection.P2P, c.topTalkers().get(0).connection());
    assertTrue(s.source(CensusCollector.SOURCE).up());
    // The samples between answers do not take a census of their own: still the one of the answer at 5 s.
    clock.advanceSeconds(1);
    assertSame(c, sampler.sample().census());
  }

  @Test
  void aNetbirdKeyBecomesTheTunnelKeyInUapiHexAndItsHandshakeAndEndpointAreKept() {
    PeerTransfer p = NetbirdStatusParser.parse(dev.headroom.read.wg.FixturesAccess.v05x()).transfers().get(0);
    var tunnel = p.toTunnelPeer();
    assertEquals(64, tunnel.publicKeyHex().length());
    assertEquals(java.time.Instant.parse("2026-11-30T02:54:51Z").getEpochSecond(), tunnel.lastHandshakeEpochSeconds());
    assertEquals("198.51.100.23:40312", tunnel.endpoint());
    assertEquals(2_250_381_447L, tunnel.txBytes());
    assertEquals(2, tunnel.allowedIps()); // its address and one routed network
  }
}
