package dev.headroom.serve;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.cmd.ServeCommand;
import dev.headroom.config.ConfigParser;
import dev.headroom.json.Json;
import dev.headroom.testing.FixtureTree;
import dev.headroom.testing.Scrape;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The live page's routes on the real daemon over a fixture tree the test moves. */
class LivePageHttpTest {
  @TempDir Path dir;
  private ServeCommand.Running running;
  private FixtureTree tree;
  private int port;

  @BeforeEach
  void start() throws Exception {
    tree = FixtureTree.copy("kernel", dir);
    running = ServeCommand.start(ConfigParser.parse(new String[] {
        "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + tree.sys(), "--path.procfs=" + tree.proc(),
        "--sample.interval=100ms", "--netbird.interval=0s", "--census.interval=0s"}).config());
    port = running.server().port();
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.get(port, "/-/ready").statusCode() == 200);
  }

  @AfterEach
  void stop() {
    running.close();
  }

  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> points(String query) {
    HttpResponse<String> r = Scrape.get(port, "/api/v1/history" + query);
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("application/json", r.headers().firstValue("content-type").orElse("").split(";")[0]);
    return (List<Map<String, Object>>) Json.tree(r.body()).get("points");
  }

  @Test
  void historyServesTheSamplesTheDaemonTookWithTheirRates() {
    // 100 MB: believable in any interval at the fixture's 10 Gbit/s; a rate the sampler could not know is null.
    tree.traffic("wt0", 100_000_000, 80_000, 0, 0);
    await().atMost(Duration.ofSeconds(10)).until(() -> points("").stream()
        .anyMatch(p -> p.get("download_bytes_per_second") instanceof Number n && n.doubleValue() > 0));
    List<Map<String, Object>> all = points("");
    List<Long> seqs = all.stream().map(p -> ((Number) p.get("sequence")).longValue()).toList();
    assertEquals(seqs.stream().sorted().toList(), seqs, "oldest first");
    // Only download moved: upload stays exactly zero in every complete point.
    assertTrue(all.stream().filter(p -> Boolean.TRUE.equals(p.get("complete")))
        .allMatch(p -> ((Number) p.get("upload_bytes_per_second")).doubleValue() == 0), all.toString());
    long last = seqs.get(seqs.size() - 1);
    assertTrue(points("?after=" + last).stream().allMatch(p -> ((Number) p.get("sequence")).longValue() > last));
  }

  @Test
  void historyRefusesAnAfterThatIsNotASequence() {
    HttpResponse<String> r = Scrape.get(port, "/api/v1/history?after=yesterday");
    assertEquals(400, r.statusCode());
    assertTrue(r.body().contains("after must be a sample sequence number"), r.body());
  }

  @Test
  @SuppressWarnings("unchecked")
  void statusGivesEachCoreItsModeSharesOfTheLastInterval() {
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      // Keep cpu1 half in softirq and a tenth stolen, whatever interval the daemon reads it in.
      tree.addCpuTicks(1, 10, 0, 10, 20, 0, 0, 50, 10);
      Map<String, Object> cpu = (Map<String, Object>) Json.tree(
          Scrape.get(port, "/api/v1/status").body()).get("cpu");
      Map<String, Object> c1 = ((List<Map<String, Object>>) cpu.get("cores")).get(1);
      return c1.get("softirq") instanceof Number s && Math.abs(s.doubleValue() - 0.5) < 1e-9
          && c1.get("steal") instanceof Number st && Math.abs(st.doubleValue() - 0.1) < 1e-9
          && c1.get("user") instanceof Number u && Math.abs(u.doubleValue() - 0.1) < 1e-9
          && c1.get("system") instanceof Number sy && Math.abs(sy.doubleValue() - 0.1) < 1e-9;
    });
  }

  @Test
  void pageHasTheReadingAsTextAndLoadsOnlyItsOwnAssets() {
    tree.traffic("wt0", 100_000_000, 80_000, 0, 0); // believable in any interval at 10 Gbit/s
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      String body = Scrape.get(port, "/").body();
      return body.contains("data-k=\"download.peak\">") && !body.contains("data-k=\"download.peak\">0.000");
    });
    HttpResponse<String> page = Scrape.get(port, "/");
    String html = page.body();
    assertTrue(html.contains("wt0 · kernel datapath · MTU 1280 · 4 cores"), html);
    assertTrue(html.contains("Tunnel wt0: kernel datapath, MTU 1280."), html);
    assertTrue(html.contains("href=\"/metrics\"") && html.contains("href=\"/api/v1/status\"")
        && html.contains("href=\"/api/v1/history\""), html);
    assertTrue(html.contains("<script src=\"/static/live.js\""), html);
    assertFalse(html.contains("http://") || html.contains("https://"), "no other host: " + html);
    assertTrue(page.headers().firstValue("content-security-policy").orElse("").startsWith("default-src 'self'"));
    HttpResponse<String> js = Scrape.get(port, "/static/live.js");
    assertEquals("text/javascript", js.headers().firstValue("content-type").orElse("").split(";")[0]);
    assertTrue(js.body().contains("/api/v1/history"));
    HttpResponse<String> css = Scrape.get(port, "/static/live.css");
    assertEquals("text/css", css.headers().firstValue("content-type").orElse("").split(";")[0]);
  }

  @Test
  void withoutATunnelTheCardsReadNoDatapathNeverHeadroom() {
    tree.removeInterface("wt0");
    await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.get(port, "/").body()
        .contains("data-dir=\"upload\" data-verdict=\"no_datapath\""));
    String html = Scrape.get(port, "/").body();
    assertTrue(html.contains("data-dir=\"download\" data-verdict=\"no_datapath\""), html);
    assertFalse(html.contains("data-verdict=\"headroom\""), "no green card without a tunnel: " + html);
    assertTrue(Scrape.get(port, "/static/live.css").body().contains(".dir[data-verdict=no_datapath]"),
        "the state has its own style, not the green one");
  }

  @Test
  void basicAuthGuardsThePageItsAssetsAndItsData() throws Exception {
    // The hash of "secret" (bcrypt cost 4), as in WebSecurityTest.
    Path web = dir.resolve("web.yml");
    java.nio.file.Files.writeString(web,
        "basic_auth_users:\n  viewer: $2y$04$..rQpyWFaYj7eJyNmTpEBefxDd76yj8a4nC9qkuVsDWjCE7th8Rr.\n");
    try (ServeCommand.Running guarded = ServeCommand.start(ConfigParser.parse(new String[] {
        "--web.listen-address=127.0.0.1:0", "--path.sysfs=" + tree.sys(), "--path.procfs=" + tree.proc(),
        "--sample.interval=100ms", "--netbird.interval=0s", "--census.interval=0s", "--web.config.file=" + web}).config())) {
      int p = guarded.server().port();
      String auth = "Basic " + java.util.Base64.getEncoder().encodeToString("viewer:secret".getBytes());
      for (String path : new String[] {"/", "/static/live.js", "/static/live.css", "/api/v1/history", "/api/v1/status"}) {
        assertEquals(401, Scrape.get(p, path).statusCode(), path + " without a password");
        await().atMost(Duration.ofSeconds(10)).until(() -> Scrape.get(p, path, "Authorization", auth).statusCode() == 200);
      }
    }
  }
}
