package dev.headroom.cmd;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.config.ConfigParser;
import dev.headroom.testing.FixtureTree;
import dev.headroom.testing.Scrape;
import dev.headroom.testing.Tools;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real daemon on a free port over a fixture tree whose counters the test moves, scraped over HTTP.
 */
class DaemonIntegrationTest {
  private static final String DOWN_TOTAL = "headroom_tunnel_bytes_total{direction=\"download\"}";
  private static final String DOWN_RATE = "headroom_tunnel_throughput_bytes_per_second{direction=\"download\"}";

  @TempDir Path dir;
  private ServeCommand.Running running;
  private FixtureTree tree;
  private int port;

  private void start(String fixture) throws Exception {
    tree = FixtureTree.copy(fixture, dir);
    running = ServeCommand.start(ConfigParser.parse(new String[] {
        "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + tree.sys(), "--path.procfs=" + tree.proc(),
        "--sample.interval=100ms", "--sample.peak-window=2s", "--labels.network=net-a"}).config());
    port = running.server().port();
  }

  @AfterEach
  void stop() {
    if (running != null) {
      running.close();
    }
  }

  private void awaitReady() {
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.get(port, "/-/ready").statusCode() == 200);
  }

  @Test
  void countersAdvancedByTheTestAreServedExactly() throws Exception {
    start("userspace");
    awaitReady();
    tree.traffic("wt0", 500_000_000, 400_000, 20_000_000, 300_000);
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get(DOWN_TOTAL) == 5e8);
    Map<String, Double> m = Scrape.metrics(port);
    assertEquals(2e7, m.get("headroom_tunnel_bytes_total{direction=\"upload\"}"));
    assertEquals(1.0, m.get("headroom_peer_info{network=\"net-a\",site=\"default\"}"));
    // The burst landed in one interval: the sliding peak holds it at interval scale (>= 0.5 GB over <= 1 s).
    assertTrue(m.get("headroom_tunnel_peak_throughput_bytes_per_second{direction=\"download\",window=\"sliding\"}") >= 5e8);
    assertEquals("", Tools.promtoolCheckMetrics(Scrape.get(port, "/metrics").body()));
  }

  @Test
  void tunnelRestartNeverShowsANegativeRateAndTotalsKeepGrowing() throws Exception {
    start("userspace");
    awaitReady();
    tree.traffic("wt0", 100_000_000, 80_000, 0, 0);
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get(DOWN_TOTAL) == 1e8);
    List<Double> rates = new ArrayList<>();
    tree.recreateInterface("wt0", 44);
    tree.traffic("wt0", 30_000_000, 24_000, 0, 0);
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      Map<String, Double> m = Scrape.metrics(port);
      rates.add(m.get(DOWN_RATE));
      return m.get(DOWN_TOTAL) == 1.3e8;
    });
    Map<String, Double> m = Scrape.metrics(port);
    assertEquals(1.0, m.get("headroom_tunnel_restarts_total"));
    assertEquals(44.0, m.get("headroom_tunnel_ifindex"));
    assertTrue(rates.stream().allMatch(r -> r >= 0), "negative rate among " + rates);
  }

  @Test
  void vanishedTunnelMakesTheDaemonUnreadyAndItRecovers() throws Exception {
    start("userspace");
    awaitReady();
    tree.traffic("wt0", 10_000_000, 8_000, 0, 0);
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get(DOWN_TOTAL) == 1e7);
    tree.removeInterface("wt0");
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get("headroom_tunnel_up") == 0.0);
    HttpResponse<String> ready = Scrape.get(port, "/-/ready");
    assertEquals(503, ready.statusCode());
    assertTrue(ready.body().contains("absent"), ready.body());
    assertEquals(1.0, Scrape.metrics(port).get("headroom_datapath{datapath=\"absent\"}"));

    FixtureTree back = FixtureTree.copy("userspace", dir.resolve("again"));
    copyInterface(back, tree);
    tree.recreateInterface("wt0", 51);
    tree.traffic("wt0", 7_000_000, 5_000, 0, 0);
    awaitReady();
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get(DOWN_TOTAL) == 1.7e7);
    assertEquals(1.0, Scrape.metrics(port).get("headroom_tunnel_up"));
  }

  @Test
  void coreGoingOfflineAndOnlineIsFollowed() throws Exception {
    start("kernel");
    awaitReady();
    tree.setOffline(2, "0-1,3");
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get("headroom_cpu_online{cpu=\"2\"}") == 0.0);
    Map<String, Double> m = Scrape.metrics(port);
    assertEquals(3.0, m.get("headroom_cpus_online"));
    assertTrue(m.containsKey("headroom_cpu_busy_ratio{cpu=\"3\"}"));
    tree.setOnline(2, "0-3", 500000, 0, 1000, 2000000, 0, 0, 0, 0, 0, 0);
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.metrics(port).get("headroom_cpus_online") == 4.0);
    double busy = Scrape.metrics(port).get("headroom_cpu_busy_ratio{cpu=\"2\"}");
    assertTrue(busy >= 0 && busy <= 1, "busy " + busy);
  }

  @Test
  void pagesHealthStatusAndContentNegotiation() throws Exception {
    start("kernel");
    awaitReady();
    assertEquals("OK\n", Scrape.get(port, "/-/healthy").body());
    HttpResponse<String> landing = Scrape.get(port, "/");
    assertTrue(landing.body().contains("href=\"/metrics\""), landing.body());
    assertTrue(landing.body().contains("kernel datapath"), landing.body());
    HttpResponse<String> status = Scrape.get(port, "/api/v1/status");
    assertEquals("application/json", status.headers().firstValue("content-type").orElse("").split(";")[0]);
    assertTrue(status.body().contains("\"datapath\":\"kernel\""), status.body());
    HttpResponse<String> om = Scrape.get(port, "/metrics", "Accept", "application/openmetrics-text; version=1.0.0");
    assertTrue(om.headers().firstValue("content-type").orElse("").startsWith("application/openmetrics-text"));
    assertTrue(om.body().endsWith("# EOF\n"));
    HttpResponse<String> gz = Scrape.get(port, "/metrics", "Accept-Encoding", "gzip");
    assertEquals("gzip", gz.headers().firstValue("content-encoding").orElse(""));
    assertEquals(404, Scrape.get(port, "/nope").statusCode());
  }

  private static void copyInterface(FixtureTree from, FixtureTree to) throws Exception {
    Path src = from.sys().resolve("class/net/wt0");
    Path dst = to.sys().resolve("class/net/wt0");
    try (var files = java.nio.file.Files.walk(src)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path d = dst.resolve(src.relativize(p).toString());
        if (java.nio.file.Files.isDirectory(p)) {
          java.nio.file.Files.createDirectories(d);
        } else {
          java.nio.file.Files.copy(p, d, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }
}
