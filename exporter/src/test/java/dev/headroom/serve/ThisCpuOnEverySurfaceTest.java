package dev.headroom.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.json.Json;
import dev.headroom.judge.ThisCpu;
import dev.headroom.judge.Units;
import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * This CPU against the reference and its size table read the same on the page, in its status JSON and in
 * {@code check}'s words, once the cost is learned (the golden kernel fixture learns it from its second, at 0.8x the
 * reference's speed behind a 10 Gbit/s NIC), and nowhere before (the userspace fixture has not).
 */
class ThisCpuOnEverySurfaceTest {
  private static final HeadroomMetrics.ExporterInfo INFO =
      new HeadroomMetrics.ExporterInfo("test", "dc-east", "eu-west", "wt0", 0.9);
  private static final Readiness.State READY = new Readiness.State(true, "");

  @TempDir Path dir;

  @SuppressWarnings("unchecked")
  private static Map<String, Object> at(Map<String, Object> m, String... keys) {
    for (String k : keys) {
      m = (Map<String, Object>) m.get(k);
    }
    return m;
  }

  @Test
  void aLearnedCostShowsTheSpeedAndTheSizesOnThePageTheStatusAndCheck() throws Exception {
    Published p = GoldenMetricsTest.published("kernel", dir);
    ThisCpu cpu = ThisCpu.of(p.judgement().of(Direction.DOWNLOAD).ceiling().cost(), p.judgement().observation());
    String speed = "This CPU: 0.8x the reference (download), 0.8x (upload), from 1s of load (cost ±0%;"
        + " directions not told apart: upload at the reference's ratio)";
    assertEquals(speed, LandingPage.cap(Explainer.thisCpu(cpu)));

    String words = InWords.describe(p, 0.9);
    assertTrue(words.contains(speed + ".\n" + Explainer.SIZES_WORDS + ":\n"), words);
    assertTrue(words.contains("  vCPUs     kernel download       kernel upload\n"), words);
    // 16 cores of a CPU at 0.8x the reference: 0.8 x the table's 20 Gbps download, above the NIC's inner 9.45.
    double nic = cpu.row(Datapath.KERNEL, 16).bytesPerSecond().download();
    assertTrue(cpu.row(Datapath.KERNEL, 16).linkCapped().download());
    assertTrue(words.contains(String.format("     16  %18s", Units.num(Units.gbps(nic), 1) + "*")), words);
    assertTrue(words.contains("      1  %18s".formatted(Units.num(0.8 * 2, 1))), words);
    assertTrue(words.contains(Explainer.LINK_CAPPED_WORDS), words);

    String page = LandingPage.render(p, INFO, "/metrics", READY);
    assertTrue(page.contains("<p data-k=\"this_cpu\">" + LandingPage.esc(speed) + "</p>"), page);
    assertTrue(page.contains("<th>vCPUs</th><th>kernel download</th><th>kernel upload</th>"), page);
    // Upload carries 625-byte packets: half the bytes of full ones per packet.
    assertTrue(page.contains("<tr><td>1</td><td>1.6</td><td>0.8</td></tr>"), page);

    Map<String, Object> status = Json.tree(StatusJson.render(p, INFO, READY));
    assertEquals(speed, at(status, "page", "text").get("this_cpu"));
    String table = (String) at(status, "page", "html").get("sizes");
    assertTrue(table.contains("<table class=\"sizes\">") && page.contains(table), table);
    assertEquals(Boolean.TRUE, at(status, "this_cpu").get("learned"));
    assertEquals(7, ((List<?>) at(status, "this_cpu").get("sizes")).size());
  }

  @Test
  void withoutALearnedCostNothingOfThisCpuIsShown() throws Exception {
    Published p = GoldenMetricsTest.published("userspace", dir);
    assertFalse(InWords.describe(p, 0.9).contains("This CPU"));
    String page = LandingPage.render(p, INFO, "/metrics", READY);
    assertTrue(page.contains("<p data-k=\"this_cpu\"></p><div data-html=\"sizes\"></div>"), page);
    Map<String, Object> status = Json.tree(StatusJson.render(p, INFO, READY));
    assertEquals("", at(status, "page", "html").get("sizes"));
    assertEquals(Boolean.FALSE, at(status, "this_cpu").get("learned"));
  }

  @Test
  void thePagesPendingWordsAreTheStatussBeforeTheFirstSample() {
    Map<String, Object> status = Json.tree(StatusJson.render(null, INFO, READY));
    Map<String, Object> text = at(status, "page", "text");
    String page = LandingPage.render(null, INFO, "/metrics", READY);
    for (Map.Entry<String, Object> e : text.entrySet()) {
      assertTrue(page.contains("data-k=\"" + e.getKey() + "\">" + LandingPage.esc((String) e.getValue()) + "<"),
          e.getKey() + " differs: " + e.getValue());
    }
    assertEquals("Verdict pending", text.get("download.verdict"));
    assertEquals("· ceiling pending", text.get("download.ceiling"));
    assertEquals("none yet", text.get("upload.peak"));
    assertTrue(page.contains("<ul data-html=\"advice\">" + at(status, "page", "html").get("advice") + "</ul>"), page);
  }
}
