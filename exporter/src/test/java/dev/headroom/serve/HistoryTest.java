package dev.headroom.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.json.Json;
import dev.headroom.judge.Learned;
import dev.headroom.read.CpuTimes;
import dev.headroom.read.ProcStatCpuSource;
import dev.headroom.sample.Core;
import dev.headroom.sample.Sampler;
import dev.headroom.config.Config;
import dev.headroom.config.TestConfig;
import dev.headroom.testing.FakeClock;
import dev.headroom.testing.FixtureTree;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The live page's history ring, fed by the real sampler over a fixture tree with a clock the test moves. */
class HistoryTest {
  @TempDir Path dir;
  private final FakeClock clock = new FakeClock();
  private FixtureTree tree;
  private Sampler sampler;

  private Published sample() {
    if (sampler == null) {
      tree = tree == null ? FixtureTree.copy("kernel", dir) : tree;
      Config s = TestConfig.fixture(tree.sys(), tree.proc());
      sampler = new Sampler(s, new ProcStatCpuSource(tree.sys(), tree.proc()), clock, () -> 1_764_460_800_000L,
          Runnable::run, null);
    } else {
      clock.advanceSeconds(1);
    }
    return new Published(sampler.sample(), null, null, SamplerTiming.NONE, Learned.NONE);
  }

  /** The points of {@code /api/v1/history}, oldest first. */
  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> points(History h) {
    return (List<Map<String, Object>>) Json.tree(h.json(-1)).get("points");
  }

  private static List<Long> sequences(History h) {
    return points(h).stream().map(p -> ((Number) p.get("sequence")).longValue()).toList();
  }

  private static double number(Map<String, Object> point, String field) {
    return ((Number) point.get(field)).doubleValue();
  }

  /** Point {@code i}'s share of CPU {@code cpu} in the column named {@code field}; NaN where the JSON has null. */
  @SuppressWarnings("unchecked")
  private static double share(History h, int i, int cpu, String field) {
    List<List<Object>> cores = (List<List<Object>>) points(h).get(i).get("cores");
    int column = List.of("cpu", "busy", "user", "system", "softirq", "steal").indexOf(field);
    for (List<Object> c : cores) {
      if (((Number) c.get(0)).intValue() == cpu) {
        return c.get(column) == null ? Double.NaN : ((Number) c.get(column)).doubleValue();
      }
    }
    throw new AssertionError("point " + i + " has no cpu" + cpu);
  }

  @Test
  void ringKeepsTheNewestSpanAndDropsTheOldest() {
    History h = new History(Duration.ofSeconds(5), Duration.ofSeconds(1));
    for (int i = 0; i < 8; i++) {
      h.accept(sample());
    }
    assertEquals(List.of(4L, 5L, 6L, 7L, 8L), sequences(h));
  }

  @Test
  void eachReadSeesTheRingAsItStoodAndLaterSamplesDoNotChangeIt() {
    History h = new History(Duration.ofSeconds(3), Duration.ofSeconds(1));
    h.accept(sample());
    h.accept(sample());
    String before = h.json(-1);
    h.accept(sample());
    h.accept(sample());
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> then = (List<Map<String, Object>>) Json.tree(before).get("points");
    assertEquals(2, then.size());
    assertEquals(1L, ((Number) then.get(0).get("sequence")).longValue());
    assertEquals(List.of(2L, 3L, 4L), sequences(h));
  }

  private static int capacity(Duration interval) {
    return ((Number) Json.tree(new History(History.SPAN, interval).json(-1)).get("capacity")).intValue();
  }

  @Test
  void capacityFollowsTheIntervalAndIsBounded() {
    assertEquals(300, capacity(Duration.ofSeconds(1)));
    assertEquals(600, capacity(Duration.ofMillis(500)));
    assertEquals(History.MAX_POINTS, capacity(Duration.ofMillis(10)));
    assertThrows(IllegalArgumentException.class, () -> new History(Duration.ZERO, Duration.ofSeconds(1)));
  }

  @Test
  void pointsCarryTheTunnelRatesOfEachSample() {
    History h = new History(History.SPAN, Duration.ofSeconds(1));
    h.accept(sample());
    tree.traffic("wt0", 250_000_000, 200_000, 50_000_000, 40_000);
    h.accept(sample());
    Map<String, Object> p = points(h).get(1);
    assertEquals(Boolean.TRUE, p.get("complete"));
    assertEquals(250_000_000, number(p, "download_bytes_per_second"), 1e-6);
    assertEquals(50_000_000, number(p, "upload_bytes_per_second"), 1e-6);
  }

  @Test
  void coreSharesAreOfTheLastIntervalAndSumToBusy() {
    History h = new History(History.SPAN, Duration.ofSeconds(1));
    h.accept(sample());
    // cpu0 over 100 ticks: user 10 + nice 5, system 10 + irq 5, softirq 40, steal 10, idle 15 + iowait 5.
    tree.addCpuTicks(0, 10, 5, 10, 15, 5, 5, 40, 10);
    tree.addCpuTicks(1, 0, 0, 0, 100);
    h.accept(sample());
    assertEquals(0.15, share(h, 1, 0, "user"), 1e-9);
    assertEquals(0.15, share(h, 1, 0, "system"), 1e-9);
    assertEquals(0.40, share(h, 1, 0, "softirq"), 1e-9);
    assertEquals(0.10, share(h, 1, 0, "steal"), 1e-9);
    assertEquals(0.80, share(h, 1, 0, "busy"), 1e-9);
    assertEquals(share(h, 1, 0, "busy"), share(h, 1, 0, "user") + share(h, 1, 0, "system")
        + share(h, 1, 0, "softirq") + share(h, 1, 0, "steal"), 1e-9);
    assertEquals(0.0, share(h, 1, 1, "busy"), 1e-9);
    // The first sample has no interval: unknown, not zero.
    assertTrue(Double.isNaN(share(h, 0, 0, "softirq")));
  }

  @Test
  void coreBackOnlineStartsWithoutSharesRatherThanSinceItWentAway() {
    History h = new History(History.SPAN, Duration.ofSeconds(1));
    h.accept(sample());
    tree.setOffline(2, "0-1,3");
    h.accept(sample());
    for (String field : List.of("busy", "user", "system", "softirq", "steal")) {
      assertTrue(Double.isNaN(share(h, 1, 2, field)), "offline: " + field + " unknown");
    }
    tree.setOnline(2, "0-3", 500000, 0, 1000, 2000000, 0, 0, 0, 0, 0, 0);
    h.accept(sample());
    assertTrue(Double.isNaN(share(h, 2, 2, "busy")), "first interval back has no baseline");
    tree.addCpuTicks(2, 50, 0, 0, 50);
    h.accept(sample());
    assertEquals(0.5, share(h, 3, 2, "user"), 1e-9);
  }

  @Test
  void sharesOfReadingsThatWentBackwardsAreUnknown() {
    CpuTimes a = new CpuTimes(0, 100, 0, 100, 1000, 0, 0, 100, 0);
    CpuTimes b = new CpuTimes(0, 50, 0, 100, 900, 0, 0, 100, 0);
    assertTrue(Double.isNaN(Core.between(a, b).softirq()));
    assertFalse(Core.between(a, b).hasShares());
    assertEquals(0.0, Core.between(a, b).busy(), "no negative or made-up busy from a backwards step");
    assertTrue(Double.isNaN(Core.between(null, a).user()));
  }

  @Test
  @SuppressWarnings("unchecked")
  void jsonHasEveryPointAndOnlyTheNewerOnesAfterASequence() {
    History h = new History(History.SPAN, Duration.ofSeconds(1));
    h.accept(sample());
    tree.traffic("wt0", 125_000_000, 100_000, 0, 0);
    tree.addCpuTicks(3, 0, 0, 0, 50, 0, 0, 25, 25);
    h.accept(sample());
    h.accept(sample());
    Map<String, Object> all = Json.tree(h.json(-1));
    assertEquals(300.0, ((Number) all.get("span_seconds")).doubleValue());
    assertEquals(1.0, ((Number) all.get("interval_seconds")).doubleValue());
    assertEquals(List.of("cpu", "busy", "user", "system", "softirq", "steal"), all.get("core_fields"));
    List<Map<String, Object>> pts = (List<Map<String, Object>>) all.get("points");
    assertEquals(3, pts.size());
    Map<String, Object> second = pts.get(1);
    assertEquals(2L, ((Number) second.get("sequence")).longValue());
    assertEquals(1.25e8, ((Number) second.get("download_bytes_per_second")).doubleValue());
    List<List<Object>> cores = (List<List<Object>>) second.get("cores");
    assertEquals(4, cores.size());
    List<Object> cpu3 = cores.get(3);
    assertEquals(3L, ((Number) cpu3.get(0)).longValue());
    assertEquals(0.5, ((Number) cpu3.get(1)).doubleValue(), 1e-9);
    assertEquals(0.25, ((Number) cpu3.get(4)).doubleValue(), 1e-9);
    assertEquals(0.25, ((Number) cpu3.get(5)).doubleValue(), 1e-9);
    assertNull(((List<List<Object>>) pts.get(0).get("cores")).get(0).get(1), "no interval yet: null, not 0");

    List<Map<String, Object>> after = (List<Map<String, Object>>) Json.tree(h.json(2)).get("points");
    assertEquals(1, after.size());
    assertEquals(3L, ((Number) after.get(0).get("sequence")).longValue());
  }

  @Test
  void pointLookupFindsASampleStillInTheRing() {
    History h = new History(Duration.ofSeconds(2), Duration.ofSeconds(1));
    for (int i = 0; i < 4; i++) {
      h.accept(sample());
    }
    // 4 and 3 still in the ring, 1 dropped from it, 9 not sampled yet.
    assertEquals(List.of(3L, 4L), sequences(h));
  }
}
