package dev.headroom.cmd;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.config.ConfigParser;
import dev.headroom.testing.FixtureTree;
import dev.headroom.testing.LogCapture;
import dev.headroom.testing.Scrape;
import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real daemon over a fixture tree whose counters lie while it runs: jumps no link could carry, an
 * unrelated counter stepping back, a counter at 2^64-1, unreadable, FIFO and oversized files, a vanished
 * tunnel. The fixture's eth0 says 10 Gbit/s (1.25e9 B/s), so no rate above 2.5e9 B/s may ever be served.
 * Waits are long (30 s) because the machine running the suite may be loaded; none of them times anything.
 */
class CounterLiesDaemonTest {
  private static final String DOWN_TOTAL = "headroom_tunnel_bytes_total{direction=\"download\"}";
  private static final String UP_TOTAL = "headroom_tunnel_bytes_total{direction=\"upload\"}";
  private static final String DOWN_RATE = "headroom_tunnel_throughput_bytes_per_second{direction=\"download\"}";
  private static final String UP_RATE = "headroom_tunnel_throughput_bytes_per_second{direction=\"upload\"}";
  private static final String TOO_FAST = "headroom_tunnel_discontinuities_total{reason=\"too_fast\"}";
  private static final String WENT_BACK = "headroom_tunnel_discontinuities_total{reason=\"went_back\"}";
  private static final String SAMPLES = "headroom_samples_total";
  private static final double MOST_BELIEVED = 2.5e9;

  @TempDir Path dir;
  private ServeCommand.Running running;
  private FixtureTree tree;
  private int port;

  private void start() throws Exception {
    running = ServeCommand.start(ConfigParser.parse(new String[] {
        "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + tree.sys(), "--path.procfs=" + tree.proc(),
        "--sample.interval=100ms", "--sample.peak-window=5s", "--path.rundir=" + dir.resolve("run"),
        "--netbird.interval=0s", "--census.interval=0s"}).config());
    port = running.server().port();
  }

  private void startReady() throws Exception {
    tree = FixtureTree.copy("userspace", dir.resolve("tree"));
    start();
    await().atMost(Duration.ofSeconds(30)).until(() -> Scrape.get(port, "/-/ready").statusCode() == 200);
  }

  @AfterEach
  void stop() {
    if (running != null) {
      running.close();
    }
  }

  /** Every served rate and peak stays believable while the condition is awaited. */
  private void awaitBelievable(Callable<Boolean> until) {
    await().atMost(Duration.ofSeconds(30)).until(() -> {
      assertBelievable(Scrape.metrics(port));
      return until.call();
    });
  }

  private static void assertBelievable(Map<String, Double> m) {
    for (Map.Entry<String, Double> e : m.entrySet()) {
      if (e.getKey().startsWith("headroom_tunnel_throughput") || e.getKey().startsWith("headroom_tunnel_peak")
          || e.getKey().startsWith("headroom_tunnel_packets_per_second")) {
        assertTrue(e.getValue() >= 0 && e.getValue() <= MOST_BELIEVED, e.getKey() + " = " + e.getValue());
      }
    }
    for (String d : new String[] {"download", "upload"}) {
      Double util = m.get("headroom_peak_utilization_ratio{direction=\"" + d + "\"}");
      Double ceiling = m.get("headroom_ceiling_bytes_per_second{direction=\"" + d + "\"}");
      if (util != null && ceiling != null) {
        assertTrue(util <= MOST_BELIEVED / ceiling, d + " peak utilization " + util);
      }
    }
  }

  private double metric(String series) {
    return Scrape.metrics(port).get(series);
  }

  /** Waits until the daemon has taken {@code n} more samples. */
  private void awaitSamples(int n) {
    double from = metric(SAMPLES);
    await().atMost(Duration.ofSeconds(30)).until(() -> metric(SAMPLES) >= from + n);
  }

  @Test
  void aForwardJumpOfTenToTheFifteenBytesIsCountedNotServedAndPoisonsNoPeak() throws Exception {
    try (LogCapture log = LogCapture.start()) {
      startReady();
      tree.traffic("wt0", 50_000_000, 40_000, 0, 0);
      awaitBelievable(() -> metric(DOWN_TOTAL) == 5e7);
      tree.addCounter("wt0", "tx_bytes", 1_000_000_000_000_000L);
      awaitBelievable(() -> metric(TOO_FAST) == 1.0);
      awaitSamples(3);
      Map<String, Double> m = Scrape.metrics(port);
      assertBelievable(m);
      assertEquals(5e7, m.get(DOWN_TOTAL));
      assertEquals(0.0, m.get("headroom_tunnel_restarts_total"));
      tree.traffic("wt0", 30_000_000, 24_000, 0, 0);
      awaitBelievable(() -> metric(DOWN_TOTAL) == 8e7);
      assertEquals(1.0, metric(TOO_FAST));
      // The drop is logged once, naming the interface and the flag that sets the bound.
      assertEquals(1, log.count("--underlay.line-rate"), log.text());
      assertTrue(log.text().lines().anyMatch(l -> l.contains("--underlay.line-rate") && l.contains("wt0")), log.text());
    }
  }

  @Test
  void aDropCounterSteppingBackIsNoRestartAndTheTotalsStayExact() throws Exception {
    tree = FixtureTree.copy("userspace", dir.resolve("tree"));
    tree.setCounter("wt0", "rx_dropped", 3);
    start();
    await().atMost(Duration.ofSeconds(30)).until(() -> Scrape.get(port, "/-/ready").statusCode() == 200);
    tree.traffic("wt0", 10_000_000, 8_000, 20_000_000, 16_000);
    awaitBelievable(() -> metric(DOWN_TOTAL) == 1e7 && metric(UP_TOTAL) == 2e7);
    tree.setCounter("wt0", "rx_dropped", 2);
    awaitBelievable(() -> metric(WENT_BACK) == 1.0);
    awaitSamples(3);
    Map<String, Double> m = Scrape.metrics(port);
    assertEquals(0.0, m.get("headroom_tunnel_restarts_total"));
    assertEquals(1e7, m.get(DOWN_TOTAL));
    assertEquals(2e7, m.get(UP_TOTAL));
    assertEquals(0.0, m.get(DOWN_RATE));
    assertEquals(0.0, m.get(UP_RATE));
    tree.addCounter("wt0", "rx_dropped", 4);
    await().atMost(Duration.ofSeconds(30)).until(() -> metric("headroom_tunnel_dropped_total{direction=\"upload\"}") == 4.0);
  }

  @Test
  void txBytesAtTwoToTheSixtyFourMinusOneGivesNoSpikeInEitherDirection() throws Exception {
    startReady();
    tree.traffic("wt0", 10_000_000, 8_000, 20_000_000, 16_000);
    awaitBelievable(() -> metric(DOWN_TOTAL) == 1e7 && metric(UP_TOTAL) == 2e7);
    tree.setCounter("wt0", "tx_bytes", -1L);
    awaitBelievable(() -> metric(TOO_FAST) == 1.0);
    awaitSamples(3);
    Map<String, Double> m = Scrape.metrics(port);
    assertBelievable(m);
    assertEquals(1e7, m.get(DOWN_TOTAL));
    assertEquals(2e7, m.get(UP_TOTAL));
    assertEquals(0.0, m.get(UP_RATE));
    assertEquals(0.0, m.get("headroom_tunnel_restarts_total"));
    tree.traffic("wt0", 5_000_000, 4_000, 0, 0); // counts on past 2^64: a wrap, and traffic again
    awaitBelievable(() -> metric(DOWN_TOTAL) == 1.5e7);
  }

  @Test
  void anUnreadableCounterLeavesRatesAbsentTheTunnelDownAndReadyDegradedWithOneLogLineEachWay() throws Exception {
    try (LogCapture log = LogCapture.start()) {
      startReady();
      tree.traffic("wt0", 10_000_000, 8_000, 0, 0);
      awaitBelievable(() -> metric(DOWN_TOTAL) == 1e7);
      long tx = tree.counter("wt0", "tx_bytes");
      tree.write(tree.netFile("wt0", "statistics/tx_bytes"), "garbage\n");
      await().atMost(Duration.ofSeconds(30)).until(() -> metric("headroom_tunnel_up") == 0.0);
      awaitSamples(5);
      Map<String, Double> m = Scrape.metrics(port);
      assertFalse(m.containsKey(DOWN_RATE), "a rate is served for an unreadable tunnel: " + m.get(DOWN_RATE));
      assertFalse(m.containsKey(UP_RATE), "a rate is served for an unreadable tunnel: " + m.get(UP_RATE));
      assertEquals(0.0, m.get("headroom_source_up{source=\"tunnel\"}"));
      assertTrue(m.get("headroom_source_errors_total{source=\"tunnel\"}") >= 5);
      HttpResponse<String> ready = Scrape.get(port, "/-/ready");
      assertEquals(503, ready.statusCode());
      assertTrue(ready.body().contains("degraded") && ready.body().contains("tx_bytes"), ready.body());
      assertEquals(200, Scrape.get(port, "/-/healthy").statusCode());

      tree.setCounter("wt0", "tx_bytes", tx + 40_000_000);
      await().atMost(Duration.ofSeconds(30)).until(() -> Scrape.get(port, "/-/ready").statusCode() == 200);
      awaitBelievable(() -> metric(DOWN_TOTAL) == 5e7); // the bytes of the gap, counted once it reads again
      assertEquals(1.0, metric("headroom_tunnel_up"));
      assertEquals(1, log.count("tunnel read failed"), log.text());
      assertEquals(1, log.count("tunnel reads again"), log.text());
    }
  }

  @Test
  void aFifoInPlaceOfACounterNeverStallsSampling() throws Exception {
    startReady();
    Path rx = tree.netFile("wt0", "statistics/rx_bytes");
    long before = tree.counter("wt0", "rx_bytes");
    Files.delete(rx);
    Process mkfifo = new ProcessBuilder("mkfifo", rx.toString()).inheritIO().start();
    assertEquals(0, mkfifo.waitFor(), "mkfifo " + rx);
    await().atMost(Duration.ofSeconds(30)).until(() -> metric("headroom_tunnel_up") == 0.0);
    awaitSamples(10);
    HttpResponse<String> ready = Scrape.get(port, "/-/ready");
    assertEquals(503, ready.statusCode());
    assertTrue(ready.body().contains("rx_bytes") && ready.body().contains("not a regular file"), ready.body());
    Files.delete(rx);
    tree.setCounter("wt0", "rx_bytes", before + 1_000_000);
    await().atMost(Duration.ofSeconds(30)).until(() -> metric("headroom_tunnel_up") == 1.0);
    awaitBelievable(() -> metric(UP_TOTAL) == 1e6);
  }

  @Test
  void aFortyMegabyteUeventIsAnErrorNamingItNotAnOutOfMemory() throws Exception {
    tree = FixtureTree.copy("userspace", dir.resolve("tree"));
    Path uevent = tree.netFile("wt0", "uevent");
    String small = Files.readString(uevent);
    try (OutputStream out = Files.newOutputStream(uevent)) {
      byte[] chunk = "INTERFACE=wt0\n".repeat(4096).getBytes(StandardCharsets.US_ASCII);
      for (long n = 0; n < 40L << 20; n += chunk.length) {
        out.write(chunk);
      }
    }
    start();
    await().atMost(Duration.ofSeconds(30)).until(() ->
        Scrape.metrics(port).getOrDefault("headroom_source_errors_total{source=\"tunnel\"}", 0.0) >= 1);
    awaitSamples(5);
    HttpResponse<String> ready = Scrape.get(port, "/-/ready");
    assertEquals(503, ready.statusCode());
    assertTrue(ready.body().contains("uevent") && ready.body().contains("longer than"), ready.body());
    assertEquals(0.0, metric("headroom_tunnel_up"));
    tree.write(uevent, small);
    await().atMost(Duration.ofSeconds(30)).until(() -> Scrape.get(port, "/-/ready").statusCode() == 200);
  }

  @Test
  void aVanishedTunnelIsLoggedOnceAndItsReturnOnce() throws Exception {
    try (LogCapture log = LogCapture.start()) {
      startReady();
      tree.removeInterface("wt0");
      await().atMost(Duration.ofSeconds(30)).until(() -> metric("headroom_tunnel_up") == 0.0);
      awaitSamples(10);
      assertEquals(1, log.count("tunnel interface wt0 vanished"), log.text());
      FixtureTree back = FixtureTree.copy("userspace", dir.resolve("again"));
      back.recreateInterface("wt0", 52);
      Files.move(back.sys().resolve("class/net/wt0"), tree.sys().resolve("class/net/wt0"),
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      await().atMost(Duration.ofSeconds(30)).until(() -> metric("headroom_tunnel_up") == 1.0);
      awaitSamples(5);
      assertEquals(1, log.count("tunnel interface wt0 vanished"), log.text());
      assertEquals(1, log.count("tunnel interface wt0 is back"), log.text());
      assertEquals(0, log.count("tunnel read failed"), log.text());
    }
  }
}
