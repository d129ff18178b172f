package dev.headroom.replay;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.cmd.ServeCommand;
import dev.headroom.config.Config;
import dev.headroom.config.ConfigParser;
import dev.headroom.json.Json;
import dev.headroom.judge.ReferenceProfile;
import dev.headroom.judge.StateFile;
import dev.headroom.judge.Units;
import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import dev.headroom.testing.Scrape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ceilings from what each packet costs the peer's CPU, replayed through the real daemon: fixture peers whose
 * datapath spends a known CPU on a known load ({@link ReplayPeer}), the cost learned over seconds
 * ({@code --ceiling.cost-after=5s}) instead of a minute, read from {@code /api/v1/status} and {@code /metrics}.
 */
class CostCeilingReplayTest {
  private static final String COST_AFTER = "5s";

  @TempDir Path dir;
  private ServeCommand.Running running;
  private ReplayPeer peer;

  @AfterEach
  void stop() {
    if (running != null) {
      running.close();
    }
    if (peer != null) {
      peer.close();
    }
  }

  private int start(Path state) throws Exception {
    Config config = ConfigParser.parse(new String[] {
        "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + peer.tree().sys(), "--path.procfs=" + peer.tree().proc(),
        "--path.cgroupfs=" + peer.cgroup(), "--sample.interval=1s", "--path.rundir=" + dir.resolve("run"),
        "--netbird.interval=0s", "--census.interval=0s", "--profile.file=" + dir.resolve("none.properties"),
        "--path.state=" + state, "--ceiling.cost-after=" + COST_AFTER}).config();
    running = ServeCommand.start(config, ServeCommand.webConfig(config), () -> {}, peer.clock());
    return running.server().port();
  }

  private static Map<String, Object> status(int port) {
    return Json.tree(Scrape.get(port, "/api/v1/status").body());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> verdict(Map<String, Object> status, Direction d) {
    Map<String, Object> v = (Map<String, Object>) status.get("verdict");
    return v == null ? null : (Map<String, Object>) v.get(d.label());
  }

  private static double num(Map<String, Object> m, String key) {
    return ((Number) m.get(key)).doubleValue();
  }

  /** Waits until download reads a cost ceiling, then returns the status a sample later. */
  private static Map<String, Object> untilCost(int port) {
    await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(250)).until(() -> {
      Map<String, Object> d = verdict(status(port), Direction.DOWNLOAD);
      return d != null && "cost".equals(d.get("ceiling_source"));
    });
    return status(port);
  }

  private static double referenceGbps(int cores, Direction d) {
    return ReferenceProfile.ceiling(Datapath.KERNEL, cores, 1280, OptionalDouble.of(Units.bytesPerSecond(100)), d)
        .gbps();
  }

  @Test
  void aSixteenCorePeerOnACpuHalfAgainAsFastAtAThirdLoadReadsHalfAgainTheReferenceInBothDirections()
      throws Exception {
    // A third of what a 1.5x faster CPU carries: 0.3 x 1.5 x 20 Gbps = 9 Gbps download on 3 of 16 cores (the
    // reference's one core carries 2 Gbps, this one 3).
    peer = ReplayPeer.kernel(16).line(100_000, 1500);
    peer.start(ReplayPeer.Load.tunnel(9, 0.3, 1280, ReplayPeer.busy(16, 3 / 16.0), 3));
    int port = start(Files.createDirectories(dir.resolve("state")));
    Map<String, Object> s = untilCost(port);
    Map<String, Object> down = verdict(s, Direction.DOWNLOAD);
    assertEquals(1.5 * referenceGbps(16, Direction.DOWNLOAD), num(down, "ceiling_gbps"), 0.1 * 30,
        "the level is this CPU's, the spread over 16 cores the reference's: " + down);
    assertEquals(0.3, num(down, "utilization"), 0.03);
    Map<String, Object> up = verdict(s, Direction.UPLOAD);
    assertEquals("cost", up.get("ceiling_source"), up.toString());
    assertEquals(1.5 * referenceGbps(16, Direction.UPLOAD), num(up, "ceiling_gbps"), 0.1 * 22.5,
        "upload's knee is in the shape, at this CPU's level: " + up);
    @SuppressWarnings("unchecked")
    Map<String, Object> cost = (Map<String, Object>) s.get("cost");
    assertEquals(true, cost.get("learned"));
    assertEquals(false, cost.get("directions_apart"), "upload only acknowledges: nothing tells the costs apart");
    assertEquals(num(cost, "reference_decrypt_encrypt_ratio"), num(cost, "decrypt_encrypt_ratio"), 1e-9);
    @SuppressWarnings("unchecked")
    Map<String, Object> speed = (Map<String, Object>) ((Map<String, Object>) s.get("this_cpu")).get("speed_vs_reference");
    assertEquals(1.5, num(speed, "download"), 0.1 * 1.5, s.get("this_cpu").toString());
    Map<String, Double> m = Scrape.metrics(port);
    assertEquals(1.0, m.get("headroom_ceiling_source{direction=\"download\",source=\"cost\"}"));
    // 3 cores for 9 Gbps of 1280-byte packets: CPU seconds per packet.
    double packetsPerSecond = 9e9 / 8 / 1280;
    assertEquals(3 / packetsPerSecond, m.get("headroom_cost_cpu_seconds_per_packet{direction=\"download\"}"),
        0.05 * 3 / packetsPerSecond);
    assertEquals(num(down, "ceiling_bytes_per_second") / 1280,
        m.get("headroom_ceiling_packets_per_second{direction=\"download\"}"), 0.05 * num(down, "ceiling_bytes_per_second") / 1280);
    assertTrue(((String) down.get("ceiling_basis")).startsWith("cost: "), down.get("ceiling_basis").toString());
  }

  @Test
  void aSixteenCorePeerOnACpuSixTenthsAsFastReadsBothCeilingsBelowTheReference() throws Exception {
    // A third of what a 0.6x CPU carries: 0.3 x 0.6 x 20 Gbps = 3.6 Gbps download on 3 of 16 cores.
    peer = ReplayPeer.kernel(16).line(100_000, 1500);
    peer.start(ReplayPeer.Load.tunnel(3.6, 0.1, 1280, ReplayPeer.busy(16, 3 / 16.0), 3));
    Path state = Files.createDirectories(dir.resolve("state"));
    int port = start(state);
    Map<String, Object> s = untilCost(port);
    Map<String, Object> down = verdict(s, Direction.DOWNLOAD);
    // Within a tenth: a loaded test machine paces the fixture's counters a few percent off.
    assertEquals(0.6 * referenceGbps(16, Direction.DOWNLOAD), num(down, "ceiling_gbps"), 0.1 * 12);
    Map<String, Object> up = verdict(s, Direction.UPLOAD);
    assertEquals("cost", up.get("ceiling_source"), "a slower CPU lowers the knee's upload too: " + up);
    assertEquals(0.6 * referenceGbps(16, Direction.UPLOAD), num(up, "ceiling_gbps"), 0.1 * 9, up.toString());
    // Kept with the observed ceilings: the state file holds the cost under the peer's shape.
    running.close(); // saves what it learned since the last save
    running = null;
    assertTrue(StateFile.read(state.resolve(StateFile.NAME)).orElseThrow().cost().w() > 0, "the cost is kept");
    int again = start(state);
    await().atMost(Duration.ofSeconds(10)).until(() -> verdict(status(again), Direction.DOWNLOAD) != null);
    Map<String, Object> first = verdict(status(again), Direction.DOWNLOAD);
    assertEquals("cost", first.get("ceiling_source"), "restored from the state file: " + first);
  }

  @Test
  void aPeerWhoseTrafficTurnsFromBulkToSmallPacketsSeesItsByteCeilingFallWhileItsPacketCeilingHolds()
      throws Exception {
    // Each packet costs the same whatever its size: 2 cores for 4 Gbps of 1280-byte packets, and for the same
    // packet rate of 200-byte ones.
    peer = ReplayPeer.kernel(8).line(100_000, 1500);
    peer.start(ReplayPeer.Load.tunnel(4, 0.1, 1280, ReplayPeer.busy(8, 0.25), 2));
    int port = start(Files.createDirectories(dir.resolve("state")));
    Map<String, Object> bulk = verdict(untilCost(port), Direction.DOWNLOAD);
    assertEquals(1280, num(bulk, "ceiling_packet_bytes"), 1e-6);
    peer.packets(200).start(ReplayPeer.Load.tunnel(4 * 200 / 1280.0, 0.1 * 200 / 1280, 1280,
        ReplayPeer.busy(8, 0.25), 2));
    // The window fades over 10 s: after 25 s the small packets' cost is what it knows.
    List<Double> packetCeilings = new ArrayList<>();
    Map<String, Object> small = null;
    long until = System.nanoTime() + 25_000_000_000L;
    while (System.nanoTime() < until) {
      Thread.sleep(1000);
      small = verdict(status(port), Direction.DOWNLOAD);
      packetCeilings.add(num(small, "ceiling_packets_per_second"));
    }
    assertEquals("cost", small.get("ceiling_source"));
    assertEquals(200, num(small, "ceiling_packet_bytes"), 1);
    double before = num(bulk, "ceiling_packets_per_second");
    assertEquals(before, num(small, "ceiling_packets_per_second"), 0.1 * before,
        "the packets it can carry hold: " + packetCeilings);
    assertTrue(num(small, "ceiling_bytes_per_second") < 0.2 * num(bulk, "ceiling_bytes_per_second"),
        "bytes fall with the packets' size: " + small);
    assertEquals(num(bulk, "utilization"), num(small, "utilization"), 0.03, "the same share of the same CPU");
    // 2 of 8 cores for 4 Gbps: the reference's one core; 8 of its cores did 6.5 first cores' work (13 Gbps).
    assertEquals(4 / 13.0, num(small, "utilization"), 0.03);
  }
}
