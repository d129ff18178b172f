package dev.headroom.replay;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.cmd.ServeCommand;
import dev.headroom.config.ConfigParser;
import dev.headroom.json.Json;
import dev.headroom.judge.Advice;
import dev.headroom.judge.AdviceItem;
import dev.headroom.judge.CeilingSelector;
import dev.headroom.judge.CeilingSource;
import dev.headroom.judge.Classifier;
import dev.headroom.judge.ConfigCeilings;
import dev.headroom.judge.CostModel;
import dev.headroom.judge.Judgement;
import dev.headroom.judge.Learned;
import dev.headroom.judge.Observation;
import dev.headroom.judge.Observations;
import dev.headroom.judge.ReferenceProfile;
import dev.headroom.judge.Thresholds;
import dev.headroom.judge.Verdict;
import dev.headroom.read.CpuSource;
import dev.headroom.read.Datapath;
import dev.headroom.read.wg.NetbirdStatusParser;
import dev.headroom.sample.Direction;
import dev.headroom.sample.NetstackCollector;
import dev.headroom.sample.Sample;
import dev.headroom.sample.Sampler;
import dev.headroom.config.Config;
import dev.headroom.config.TestConfig;
import dev.headroom.serve.HeadroomMetrics;
import dev.headroom.serve.Published;
import dev.headroom.serve.SamplerTiming;
import dev.headroom.testing.FakeClock;
import dev.headroom.testing.FixtureTree;
import dev.headroom.testing.NetbirdJson;
import dev.headroom.testing.NetbirdJson.Peer;
import dev.headroom.testing.Scrape;
import dev.headroom.serve.Explainer;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import dev.headroom.serve.web.Refusals;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A routing peer in NetBird's netstack mode: no {@code wt0}, NetBird connected without a kernel interface, the
 * {@code netbird} process carrying the datapath. Replayed twice: sample by sample on a fixture peer with a clock
 * the test moves (exact rates, CPU, verdict and metrics), and through the real daemon with a stand-in
 * {@code netbird} CLI that prints NetBird's JSON (totals, errors, NetBird down).
 */
class NetstackReplayTest {
  private static final long S = 1_000_000_000L;
  private static final int NETBIRD_PID = 4242;

  @TempDir Path dir;
  private ServeCommand.Running running;

  @AfterEach
  void stop() throws Exception {
    if (running != null) {
      running.close();
    }
  }

  /** The userspace fixture peer with its tunnel interface gone: what a netstack peer looks like from sysfs. */
  private FixtureTree netstackPeer() {
    FixtureTree t = ReplayPeer.tree("userspace");
    t.removeInterface("wt0");
    return t;
  }

  /** Adds CPU ticks (1/100 s) to the netbird process's utime. */
  private static void netbirdRuns(FixtureTree t, long ticks) {
    Path stat = t.proc().resolve(NETBIRD_PID + "/stat");
    String[] f = t.read(stat).strip().split(" ");
    f[13] = Long.toString(Long.parseLong(f[13]) + ticks);
    t.write(stat, String.join(" ", f) + "\n");
  }

  private static String metricsText(Published p) throws IOException {
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(new HeadroomMetrics(() -> p, new HeadroomMetrics.ExporterInfo("test", "n", "s", "wt0", 0.9),
        new Refusals()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, registry.scrape(), EscapingScheme.ALLOW_UTF8);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void sampleBySampleNetstackRatesComeFromThePeersAndTheVerdictFollowsTheUserspaceRules() throws IOException {
    FixtureTree t = netstackPeer();
    FakeClock clock = new FakeClock();
    Deque<String> answers = new ArrayDeque<>();
    NetstackCollector netstack = new NetstackCollector(() -> NetbirdStatusParser.parse(answers.removeFirst()),
        Runnable::run, 5 * S, 0, 5 * S, clock);
    Config settings = TestConfig.fixture(t.sys(), t.proc(), "--sample.peak-window=60s");
    Sampler sampler = new Sampler(settings, CpuSource.forRoots(t.sys(), t.proc()), clock, () -> 1_764_460_800_000L,
        Runnable::run, netstack);
    Classifier classifier = new Classifier(Thresholds.defaults());

    // Two peers moving traffic; at 10 s peer A reconnects (its counters restart), peer C is added and B removed.
    long[] a = {0, 0};
    long[] b = {0, 0};
    long c = 0;
    answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 1_000, 4_000_000_000L), NetbirdJson.peer("B=", 2_000, 1_000)));
    Sample s = sampler.sample();
    assertEquals(Datapath.NETSTACK, s.datapath());
    Judgement j = null;
    long downloadSent = 0;
    for (int sec = 1; sec <= 15; sec++) {
      clock.advanceSeconds(1);
      // The four CPUs 70 % busy, and 1.4 cores of it the netbird process's.
      for (int cpu = 0; cpu < 4; cpu++) {
        t.addCpuTicks(cpu, 50, 0, 20, 30, 0, 0, 0, 0);
      }
      netbirdRuns(t, 140);
      if (sec == 5) {
        answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 1_000 + 50_000_000, 4_000_000_000L + 250_000_000),
            NetbirdJson.peer("B=", 2_000 + 25_000_000, 1_000 + 125_000_000)));
        downloadSent += 250_000_000 + 125_000_000;
      } else if (sec == 10) {
        answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 10_000_000, 200_000_000),
            NetbirdJson.peer("B=", 2_000 + 50_000_000, 1_000 + 250_000_000)));
        downloadSent += 200_000_000 + 125_000_000;
      } else if (sec == 15) {
        answers.add(NetbirdJson.netstack(NetbirdJson.peer("A=", 20_000_000, 450_000_000),
            NetbirdJson.peer("C=", 5_000_000, 50_000_000)));
        downloadSent += 250_000_000 + 50_000_000;
      }
      s = sampler.sample();
      Observation o = Observations.from(s, Double.NaN, false);
      j = classifier.observe(o, CeilingSelector.selectBoth(o, null, ConfigCeilings.NONE, Map.of(), CostModel.Estimate.NONE));
      if (sec < 5) {
        assertTrue(Double.isNaN(s.throughput(Direction.DOWNLOAD)), "only a baseline before the second answer: no rate");
      }
      if (sec >= 5 && sec < 10) {
        assertEquals(375_000_000 / 5.0, s.throughput(Direction.DOWNLOAD), 1e-6, "at " + sec + " s");
        assertEquals(75_000_000 / 5.0, s.throughput(Direction.UPLOAD), 1e-6);
      }
      if (sec >= 10 && sec < 15) { // A restarted: its 200 MB since count, never its old 4.25 GB as a negative
        assertEquals(325_000_000 / 5.0, s.throughput(Direction.DOWNLOAD), 1e-6, "at " + sec + " s");
      }
      assertEquals(Datapath.NETSTACK, s.datapath());
      assertTrue(s.tunnelUp());
      assertEquals(5.0, s.tunnelResolutionSeconds());
    }
    assertEquals(300_000_000 / 5.0, s.throughput(Direction.DOWNLOAD), 1e-6); // C's 50 MB added, B's gone
    assertEquals(downloadSent, s.tunnelTraffic().total(dev.headroom.sample.InterfaceTracker.TX_BYTES));
    assertEquals(375_000_000 / 5.0, s.peak(Direction.DOWNLOAD), 1e-6, "the peak is the highest 5 s rate, no spike");
    assertEquals(1, s.tunnelTraffic().restarts());

    // The netbird process is the datapath: 1.4 cores.
    assertEquals(1.4, s.datapathCores(), 1e-9);
    assertTrue(s.datapathDescription().contains("pid 4242"), s.datapathDescription());

    // The reference is netstack's: half the wireguard-go figure for the fixture's 4 cores.
    double expected = dev.headroom.judge.Units.bytesPerSecond(
        ReferenceProfile.tableGbps(Datapath.USERSPACE, 4, Direction.DOWNLOAD) * ReferenceProfile.NETSTACK_SHARE_OF_USERSPACE);
    assertEquals(expected, j.of(Direction.DOWNLOAD).ceiling().bytesPerSecond(), 1);
    assertEquals(CeilingSource.REFERENCE, j.of(Direction.DOWNLOAD).ceiling().source());
    assertTrue(Explainer.basis(j.of(Direction.DOWNLOAD).ceiling()).contains("netstack"), Explainer.basis(j.of(Direction.DOWNLOAD).ceiling()));

    String text = metricsText(new Published(s, j, null,
        SamplerTiming.NONE, Learned.NONE));
    Map<String, Double> m = Scrape.parse(text);
    assertEquals(1.0, m.get("headroom_datapath{datapath=\"netstack\"}"));
    assertEquals(0.0, m.get("headroom_datapath{datapath=\"absent\"}"));
    assertEquals(1.0, m.get("headroom_tunnel_up"));
    assertEquals(1.0, m.get("headroom_source_up{source=\"netbird_status\"}"));
    assertEquals((double) downloadSent, m.get("headroom_tunnel_bytes_total{direction=\"download\"}"));
    assertEquals(1.4, m.get("headroom_datapath_cpu_cores"), 1e-9);
    assertFalse(text.contains("A="), "no public key in /metrics");
  }

  @Test
  void aNetstackPeerAtItsPlateauIsCpuBoundWithTheUserspaceAdvice() {
    FixtureTree t = netstackPeer();
    FakeClock clock = new FakeClock();
    Deque<String> answers = new ArrayDeque<>();
    NetstackCollector netstack = new NetstackCollector(() -> NetbirdStatusParser.parse(answers.removeFirst()),
        Runnable::run, S, 0, S, clock);
    Config settings = TestConfig.fixture(t.sys(), t.proc(), "--sample.peak-window=60s");
    Sampler sampler = new Sampler(settings, CpuSource.forRoots(t.sys(), t.proc()), clock, () -> 1_764_460_800_000L,
        Runnable::run, netstack);
    Classifier classifier = new Classifier(Thresholds.defaults());
    long sent = 0;
    answers.add(NetbirdJson.netstack(peers(0)));
    sampler.sample();
    Judgement j = null;
    for (int sec = 1; sec <= 12; sec++) {
      clock.advanceSeconds(1);
      for (int cpu = 0; cpu < 4; cpu++) {
        t.addCpuTicks(cpu, 90, 0, 8, 2, 0, 0, 0, 0); // all four cores 98 % busy
      }
      netbirdRuns(t, 290); // and the netbird process keeps 2.9 of them busy: past the ~3 a userspace datapath uses
      sent += 400_000_000; // 3.2 Gbit/s over 8 tunnels: near the 3.4 Gbit/s netstack reference for 4 cores
      answers.add(NetbirdJson.netstack(peers(sent)));
      Observation o = Observations.from(sampler.sample(), Double.NaN, false);
      j = classifier.observe(o, CeilingSelector.selectBoth(o, null, ConfigCeilings.NONE, Map.of(), CostModel.Estimate.NONE));
    }
    assertEquals(Verdict.CPU_BOUND, j.of(Direction.DOWNLOAD).verdict(), j.toString());
    List<Advice> advice = j.advice().stream().map(AdviceItem::advice).toList();
    assertTrue(advice.contains(Advice.ENABLE_KERNEL_WIREGUARD), advice.toString());
  }

  /** Eight users' tunnels sharing {@code sent} bytes of download. */
  private static Peer[] peers(long sent) {
    Peer[] p = new Peer[8];
    for (int i = 0; i < p.length; i++) {
      p[i] = NetbirdJson.peer("user" + i + "=", sent / 8 / 20, sent / 8);
    }
    return p;
  }

  // ---- through the daemon, with a stand-in netbird CLI

  private Path statusFile;

  /** A {@code netbird} that prints the status file, or fails as a daemon that is down when {@code down} exists. */
  private String standInNetbird() throws IOException {
    statusFile = dir.resolve("status.json");
    Path script = dir.resolve("netbird");
    Files.writeString(script, "#!/bin/sh\n"
        + "if [ -e " + dir.resolve("down") + " ]; then echo 'Error: failed to connect to daemon error: context deadline"
        + " exceeded' >&2; exit 1; fi\n"
        + "cat " + statusFile + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script.toString();
  }

  /** NetBird's next answer, swapped in whole so the CLI never prints half a file. */
  private void netbirdSays(Peer... peers) throws IOException {
    Path tmp = dir.resolve("status.tmp");
    Files.writeString(tmp, NetbirdJson.netstack(peers));
    Files.move(tmp, statusFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private static Map<String, Object> status(int port) {
    return Json.tree(Scrape.get(port, "/api/v1/status").body());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> tunnel(int port) {
    return (Map<String, Object>) status(port).get("tunnel");
  }

  private static double metric(int port, String series) {
    Double v = Scrape.metrics(port).get(series);
    return v == null ? Double.NaN : v;
  }

  /**
   * A {@code netbird} whose one peer's counters move at {@code downGbps} sent and {@code upGbps} received since
   * now: each call prints the bytes of the moment it runs, as NetBird's own counters would.
   */
  private String movingNetbird(double downGbps, double upGbps) throws IOException {
    long sentMark = 987_654_321_001L;
    long receivedMark = 987_654_321_002L;
    Path template = dir.resolve("status.template");
    Files.writeString(template, NetbirdJson.netstack(NetbirdJson.peer("A=", receivedMark, sentMark)));
    java.time.Instant t0 = java.time.Instant.now();
    long t0Nanos = t0.getEpochSecond() * 1_000_000_000L + t0.getNano();
    Path script = dir.resolve("netbird-moving");
    Files.writeString(script, "#!/bin/sh\n"
        + "set -- $(awk -v t0=" + t0Nanos + " -v now=\"$(date +%s%N)\" -v d=" + downGbps * 1e9 / 8 + " -v u="
        + upGbps * 1e9 / 8 + " 'BEGIN { s = (now - t0) / 1e9; printf \"%.0f %.0f\\n\", s * d, s * u }')\n"
        + "sed -e \"s/" + sentMark + "/$1/\" -e \"s/" + receivedMark + "/$2/\" " + template + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script.toString();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> verdict(Map<String, Object> status, Direction d) {
    Map<String, Object> v = (Map<String, Object>) status.get("verdict");
    return v == null ? null : (Map<String, Object>) v.get(d.label());
  }

  /**
   * A netstack peer of 4 cores whose netbird process spends on each byte what wireguard-go's one-core row does
   * (twice the speed the 0.5 x share assumes), at a fraction of it, its rates from NetBird's per-peer counters every
   * 2 s status interval. Until the cost is learned the ceiling is the assumed share and says so; once learned it is
   * the cost's: the wireguard-go table's figure at 4 cores (4 cores of 1.6 Gbps download), twice the assumed one.
   */
  @Test
  void aNetstackPeersCeilingComesFromItsLearnedCostOnceLearnedAndFromTheAssumedShareBefore() throws Exception {
    double down = 1.5;
    double up = 0.5;
    double cpu = down / 1.6 + up / 1.4; // wireguard-go's one-core rows: 1.6 / 1.4 Gbps
    ReplayPeer peer = ReplayPeer.userspace(4).withoutTunnel().line(100_000, 1500);
    String netbird = movingNetbird(down, up);
    peer.start(ReplayPeer.Load.tunnel(0, 0, 1280, ReplayPeer.busy(4, cpu / 4), cpu));
    try {
      Config config = ConfigParser.parse(new String[] {
          "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + peer.tree().sys(), "--path.procfs=" + peer.tree().proc(),
          "--path.cgroupfs=" + dir.resolve("no-cgroup"), "--path.rundir=" + dir.resolve("run"),
          "--path.state=" + Files.createDirectories(dir.resolve("state")), "--sample.interval=500ms",
          "--netbird.command=" + netbird, "--netbird.interval=1h", "--netbird.status-interval=2s",
          "--census.interval=0s", "--ceiling.cost-after=6s", "--profile.file=" + dir.resolve("none.properties")})
          .config();
      running = ServeCommand.start(config, ServeCommand.webConfig(config), () -> {}, peer.clock());
      int port = running.server().port();
      double assumed = ReferenceProfile.NETSTACK_SHARE_OF_USERSPACE * 6.8; // wireguard-go at 4 cores: 6.8 Gbps

      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
        Map<String, Object> v = verdict(status(port), Direction.DOWNLOAD);
        return v != null && ((Number) v.get("ceiling_gbps")).doubleValue() > 0
            && "netstack".equals(tunnel(port).get("datapath"));
      });
      Map<String, Object> before = verdict(status(port), Direction.DOWNLOAD);
      assertEquals("reference", before.get("ceiling_source"), before.toString());
      assertEquals(assumed, ((Number) before.get("ceiling_gbps")).doubleValue(), 1e-6, before.toString());
      assertTrue(((String) before.get("ceiling_basis")).contains("assumed 0.5 x userspace WireGuard"),
          before.get("ceiling_basis").toString());

      await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(250))
          .until(() -> "cost".equals(verdict(status(port), Direction.DOWNLOAD).get("ceiling_source")));
      Map<String, Object> s = status(port);
      Map<String, Object> after = verdict(s, Direction.DOWNLOAD);
      assertEquals(4 * 1.6, ((Number) after.get("ceiling_gbps")).doubleValue(), 0.1 * 4 * 1.6,
          "4 cores of wireguard-go's one-core row: " + after);
      assertTrue(((String) after.get("ceiling_basis")).startsWith("cost: "), after.get("ceiling_basis").toString());
      @SuppressWarnings("unchecked")
      Map<String, Object> cost = (Map<String, Object>) s.get("cost");
      assertTrue(((Number) cost.get("fixed_cores")).doubleValue() < 0.05 * cpu,
          "NetBird's first answer, a baseline, is no idle tunnel: " + cost);
      Map<String, Object> afterUp = verdict(s, Direction.UPLOAD);
      assertEquals("cost", afterUp.get("ceiling_source"), afterUp.toString());
      // wireguard-go's upload keeps 2.5 cores' worth busy at 4 cores (3.5 over its 1.4 Gbps one-core row).
      assertEquals(3.5, ((Number) afterUp.get("ceiling_gbps")).doubleValue(), 0.1 * 3.5, afterUp.toString());
      @SuppressWarnings("unchecked")
      Map<String, Object> speed = (Map<String, Object>) ((Map<String, Object>) s.get("this_cpu")).get("speed_vs_reference");
      assertEquals(2.0, ((Number) speed.get("download")).doubleValue(), 0.2,
          "twice the speed the assumed share gives netstack: " + speed);
    } finally {
      peer.close();
    }
  }

  @Test
  void theDaemonCountsNetbirdsPerPeerBytesExactlyAndTellsNetbirdDownFromNetstack() throws Exception {
    FixtureTree t = netstackPeer();
    String netbird = standInNetbird();
    netbirdSays(NetbirdJson.peer("A=", 1_000, 1_000_000), NetbirdJson.peer("B=", 2_000, 2_000_000));
    running = ServeCommand.start(ConfigParser.parse(new String[] {
        "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + t.sys(), "--path.procfs=" + t.proc(),
        "--path.cgroupfs=" + dir.resolve("no-cgroup"), "--path.rundir=" + dir.resolve("run"),
        "--sample.interval=100ms", "--netbird.command=" + netbird, "--netbird.interval=1h",
        "--netbird.status-interval=300ms", "--profile.file=" + dir.resolve("none.properties")}).config());
    int port = running.server().port();
    String download = "headroom_tunnel_bytes_total{direction=\"download\"}";
    String upload = "headroom_tunnel_bytes_total{direction=\"upload\"}";

    await().atMost(Duration.ofSeconds(20)).until(() -> "netstack".equals(tunnel(port).get("datapath")));
    assertEquals(0.3, ((Number) tunnel(port).get("resolution_seconds")).doubleValue(), 1e-9);
    assertEquals(1.0, metric(port, "headroom_datapath{datapath=\"netstack\"}"));
    assertEquals(1.0, metric(port, "headroom_tunnel_up"));

    // Traffic, then A reconnects (restarts from 0) and moves 3 MB more; every byte counted once.
    netbirdSays(NetbirdJson.peer("A=", 11_000, 6_000_000), NetbirdJson.peer("B=", 2_000, 4_000_000));
    await().atMost(Duration.ofSeconds(20)).until(() -> metric(port, download) == 7_000_000);
    netbirdSays(NetbirdJson.peer("A=", 500, 3_000_000), NetbirdJson.peer("B=", 2_000, 4_000_000));
    await().atMost(Duration.ofSeconds(20)).until(() -> metric(port, download) == 10_000_000);
    assertEquals(10_000 + 500, metric(port, upload));
    // B removed, C added with 1 MB.
    netbirdSays(NetbirdJson.peer("A=", 500, 3_000_000), NetbirdJson.peer("C=", 0, 1_000_000));
    await().atMost(Duration.ofSeconds(20)).until(() -> metric(port, download) == 11_000_000);
    assertEquals(1.0, metric(port, "headroom_tunnel_restarts_total"));
    // The census comes from the same answers: two tunnels, and no key in /metrics.
    await().atMost(Duration.ofSeconds(20)).until(() -> metric(port, "headroom_tunnels{state=\"total\"}") == 2);
    assertFalse(Scrape.get(port, "/metrics").body().contains("C="), "no public key in /metrics");
    assertTrue(metric(port, "headroom_tunnel_throughput_bytes_per_second{direction=\"download\"}") >= 0);

    // NetBird answers an error: source down and counted, rates unknown; after a few intervals it is NetBird down.
    Files.writeString(dir.resolve("down"), "");
    await().atMost(Duration.ofSeconds(20)).until(() -> metric(port, "headroom_source_up{source=\"netbird_status\"}") == 0);
    assertTrue(metric(port, "headroom_source_errors_total{source=\"netbird_status\"}") >= 1);
    // One reading, so that the datapath and the rate are of the same sample: while the netstack datapath holds on
    // through the failed calls the rate is unknown, not the last one; once NetBird is taken as down it is absent.
    Map<String, Object> failing = tunnel(port);
    @SuppressWarnings("unchecked")
    Object rate = ((Map<String, Object>) failing.get("download")).get("bytes_per_second");
    assertTrue(!"netstack".equals(failing.get("datapath")) || rate == null, "no stale rate: " + failing);
    await().atMost(Duration.ofSeconds(20)).until(() -> "absent".equals(tunnel(port).get("datapath")));
    assertEquals(0.0, metric(port, "headroom_tunnel_up")); // the tunnel-down alert's signal
    assertEquals(11_000_000, metric(port, download), "totals are kept while NetBird is down");

    // NetBird back in netstack mode: counts on, the first answer a baseline, not a spike.
    netbirdSays(NetbirdJson.peer("A=", 500, 3_500_000), NetbirdJson.peer("C=", 0, 1_000_000));
    Files.delete(dir.resolve("down"));
    await().atMost(Duration.ofSeconds(20)).until(() -> "netstack".equals(tunnel(port).get("datapath")));
    await().atMost(Duration.ofSeconds(20)).until(() -> metric(port, "headroom_source_up{source=\"netbird_status\"}") == 1);
    netbirdSays(NetbirdJson.peer("A=", 500, 3_600_000), NetbirdJson.peer("C=", 0, 1_000_000));
    await().atMost(Duration.ofSeconds(20)).until(() -> metric(port, download) >= 11_100_000);
    assertTrue(metric(port, download) <= 11_600_000, "at most the bytes NetBird counted while it was unreadable");
  }
}
