package dev.headroom.replay;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import dev.headroom.testing.LogCapture;
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
 * Ceilings learned from the peer's own traffic, replayed through the real daemon: a fixture peer under a steady
 * load ({@link ReplayPeer}), episodes shortened to seconds by {@code --ceiling.learn-after}, the reading taken from
 * {@code /api/v1/status} and {@code /metrics}, the state file from {@code --path.state}.
 */
class ObservedCeilingReplayTest {
  /** Long enough to span several samples; short enough for a test. */
  private static final String LEARN_AFTER = "6s";

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

  /** The reference download ceiling of an 8-core kernel peer on 25 GbE, in Gbps. */
  private static double referenceGbps() {
    return ReferenceProfile.ceiling(Datapath.KERNEL, 8, 1280, OptionalDouble.of(Units.bytesPerSecond(25)),
        Direction.DOWNLOAD).gbps();
  }

  private int start(Path state, String... flags) throws Exception {
    List<String> args = new ArrayList<>(List.of(
        "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + peer.tree().sys(), "--path.procfs=" + peer.tree().proc(),
        "--path.cgroupfs=" + peer.cgroup(), "--sample.interval=1s", "--path.rundir=" + dir.resolve("run"),
        "--netbird.interval=0s", "--census.interval=0s", "--profile.file=" + dir.resolve("none.properties"),
        "--path.state=" + state,
        "--ceiling.learn-after=" + LEARN_AFTER));
    args.addAll(List.of(flags));
    Config config = ConfigParser.parse(args.toArray(String[]::new)).config();
    running = ServeCommand.start(config, ServeCommand.webConfig(config), () -> {}, peer.clock());
    return running.server().port();
  }

  private void restart() {
    running.close();
    running = null;
  }

  private static Map<String, Object> status(int port) {
    return Json.tree(Scrape.get(port, "/api/v1/status").body());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> download(Map<String, Object> status) {
    Map<String, Object> v = (Map<String, Object>) status.get("verdict");
    return v == null ? null : (Map<String, Object>) v.get("download");
  }

  private static double num(Map<String, Object> m, String key) {
    return ((Number) m.get(key)).doubleValue();
  }

  /** Polls the status each 200 ms until download reads an observed ceiling; returns every reading on the way. */
  private static List<Map<String, Object>> untilObserved(int port, int seconds) {
    List<Map<String, Object>> seen = new ArrayList<>();
    await().atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(200)).until(() -> {
      Map<String, Object> st = status(port);
      Map<String, Object> d = download(st);
      if (d != null && d.get("utilization") != null) {
        d.put("sequence", st.get("sequence"));
        seen.add(d);
      }
      return d != null && "observed".equals(d.get("ceiling_source"));
    });
    return seen;
  }

  @Test
  void aPeerOnASlowerCpuSaturatingAtSixtyPercentOfTheReferenceIsReadAgainstWhatItCarries() throws Exception {
    double ref = referenceGbps();
    peer = ReplayPeer.kernel(8).line(25_000, 1500);
    peer.start(ReplayPeer.Load.tunnel(0.6 * ref, 0.1, 1280, ReplayPeer.busy(8, 0.97), 7.5));
    Path state = Files.createDirectories(dir.resolve("state"));
    int port = start(state);

    List<Map<String, Object>> before = untilObserved(port, 40);
    assertTrue(before.stream().anyMatch(d -> "reference".equals(d.get("ceiling_source"))
        && Math.abs(num(d, "utilization") - 0.6) < 0.05), "first read against the table: 60 % " + before);
    List<Double> utils = new ArrayList<>();
    Map<String, Object> d = null;
    for (int i = 0; i < 5; i++) {
      sleepSamples(1);
      d = download(status(port));
      assertEquals("cpu_bound", d.get("verdict"));
      assertEquals("cores_saturated", d.get("cause"));
      utils.add(num(d, "utilization"));
    }
    // One sample's rate can read a few percent off on a busy machine; what the peer holds does not.
    assertEquals(1.0, utils.stream().sorted().toList().get(2), 0.05, "near 1 against its own ceiling, not 0.6: " + utils);
    assertEquals(0.6 * ref, num(d, "ceiling_gbps"), 0.03 * ref);
    @SuppressWarnings("unchecked")
    Map<String, Object> observed = (Map<String, Object>) d.get("observed");
    assertEquals("cpu_saturated", observed.get("from"));
    assertTrue(num(observed, "episode_seconds") >= 6, observed.toString());
    assertNotNull(java.time.Instant.parse((String) observed.get("learned_at")));
    Map<String, Double> m = Scrape.metrics(port);
    assertEquals(1.0, m.get("headroom_ceiling_source{direction=\"download\",source=\"observed\"}"));
    assertEquals(0.0, m.get("headroom_ceiling_source{direction=\"download\",source=\"reference\"}"));
    assertEquals(1.0, m.get("headroom_source_up{source=\"state\"}"));
    assertTrue(Scrape.get(port, "/").body().contains("Observed ceiling: " + String.format(java.util.Locale.ROOT,
        "%.3f", num(observed, "bytes_per_second") * 8 / 1e9) + " Gbps, sustained for"), "the live page says it");

    // The state file keeps it across a restart: read against it from the first rate on.
    StateFile.Contents saved = StateFile.read(state.resolve(StateFile.NAME)).orElseThrow();
    assertEquals(0.6 * ref, Units.gbps(saved.ceilings().get(Direction.DOWNLOAD).bytesPerSecond()), 0.03 * ref);
    restart();
    int again = start(state);
    await().atMost(Duration.ofSeconds(10)).until(() -> download(status(again)) != null);
    Map<String, Object> first = download(status(again));
    assertEquals("observed", first.get("ceiling_source"), first.toString());
    assertEquals(0.6 * ref, num(first, "ceiling_gbps"), 0.03 * ref);
  }

  @Test
  void aPeerSustainingFortyPercentOverTheReferenceWithoutSaturatingReplacesIt() throws Exception {
    double ref = referenceGbps();
    peer = ReplayPeer.kernel(8).line(25_000, 1500);
    peer.start(ReplayPeer.Load.tunnel(1.4 * ref, 0.1, 1280, ReplayPeer.busy(8, 0.5), 4));
    int port = start(Files.createDirectories(dir.resolve("state")));

    List<Map<String, Object>> before = untilObserved(port, 40);
    assertTrue(before.stream().anyMatch(d -> num(d, "utilization") > 1.3), "140 % of the table at first: " + before);
    // Above 1 for no more samples than the episode it takes to learn (6 at one a second) and the gap that ends
    // one: counted in samples, not seconds, so a slow machine does not change the answer.
    long above = before.stream().filter(d -> num(d, "utilization") > 1.05).map(d -> d.get("sequence")).distinct()
        .count();
    assertTrue(above <= 6 + 4, above + " samples read above the ceiling: " + before);
    List<Double> after = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      sleepSamples(1);
      Map<String, Object> d = download(status(port));
      assertEquals("observed", d.get("ceiling_source"));
      after.add(num(d, "utilization"));
      assertEquals(1.4 * ref, num(d, "ceiling_gbps"), 0.05 * ref);
      @SuppressWarnings("unchecked")
      Map<String, Object> observed = (Map<String, Object>) d.get("observed");
      assertEquals("beat_ceiling", observed.get("from"));
    }
    // One sample's rate can read a few percent high on a busy machine; what it holds does not.
    List<Double> sorted = after.stream().sorted().toList();
    assertEquals(1.0, sorted.get(sorted.size() / 2), 0.03, "utilization once learned: " + after);
    assertTrue(sorted.get(sorted.size() - 1) < 1.2, "never back to the 1.4 it read against the table: " + after);
  }

  @Test
  void aConfiguredCeilingThePeerBeatsIsKeptAndReported() throws Exception {
    peer = ReplayPeer.kernel(8).line(25_000, 1500);
    peer.start(ReplayPeer.Load.tunnel(3.0, 0.1, 1280, ReplayPeer.busy(8, 0.5), 2));
    int port = start(Files.createDirectories(dir.resolve("state")), "--ceiling.download=2gbit");
    await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200))
        .until(() -> download(status(port)) != null && download(status(port)).get("ceiling_beaten") != null);
    Map<String, Object> d = download(status(port));
    assertEquals("config", d.get("ceiling_source"), "set on purpose: kept");
    @SuppressWarnings("unchecked")
    Map<String, Object> beaten = (Map<String, Object>) d.get("ceiling_beaten");
    assertEquals("config", beaten.get("source"));
    assertEquals(3.0, num(beaten, "sustained_bytes_per_second") * 8 / 1e9, 0.1);
    assertEquals(2.0, num(beaten, "ceiling_bytes_per_second") * 8 / 1e9, 1e-6);
  }

  @Test
  void aCorruptStateFileIsRefusedWithOneLineAndLearningStartsOver() throws Exception {
    peer = ReplayPeer.kernel(8).line(25_000, 1500);
    peer.start(ReplayPeer.Load.tunnel(2, 0.1, 1280, ReplayPeer.busy(8, 0.3), 1));
    Path state = Files.createDirectories(dir.resolve("state"));
    Files.writeString(state.resolve(StateFile.NAME), "{\"format\":\"headroom-observed-ceilings-1\",\"shape\":{\"datap");
    try (LogCapture log = LogCapture.start()) {
      int port = start(state);
      await().atMost(Duration.ofSeconds(10)).until(() -> download(status(port)) != null);
      sleepSamples(3);
      Map<String, Object> s = status(port);
      assertEquals("reference", download(s).get("ceiling_source"));
      assertNull(download(s).get("observed"));
      @SuppressWarnings("unchecked")
      Map<String, Object> health = (Map<String, Object>) ((Map<String, Object>) s.get("sources")).get("state");
      assertEquals(false, health.get("up"));
      assertEquals(1.0, num(health, "errors"));
      assertEquals(1, log.count("ignoring state file"), log.text());
      assertEquals(1.0, Scrape.metrics(port).get("headroom_source_errors_total{source=\"state\"}"));
    }
  }

  @Test
  void aMissingStateDirectoryIsLoggedOnceAndLearningGoesOnInMemory() throws Exception {
    double ref = referenceGbps();
    peer = ReplayPeer.kernel(8).line(25_000, 1500);
    peer.start(ReplayPeer.Load.tunnel(0.6 * ref, 0.1, 1280, ReplayPeer.busy(8, 0.97), 7.5));
    try (LogCapture log = LogCapture.start()) {
      int port = start(dir.resolve("no-such-dir"));
      untilObserved(port, 40);
      sleepSamples(2);
      assertEquals(0.0, Scrape.metrics(port).get("headroom_source_up{source=\"state\"}"));
      assertTrue(Scrape.metrics(port).get("headroom_source_errors_total{source=\"state\"}") >= 2,
          "the start and the save that could not happen are both counted");
      assertEquals(1, log.count("is missing"), log.text());
      assertFalse(Files.exists(dir.resolve("no-such-dir")), "not made behind systemd's back");
    }
  }

  private static void sleepSamples(int n) throws InterruptedException {
    Thread.sleep(1000L * n + 100);
  }
}
