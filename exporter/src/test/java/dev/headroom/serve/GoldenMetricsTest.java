package dev.headroom.serve;

import dev.headroom.judge.CeilingSelector;
import dev.headroom.judge.Learned;
import dev.headroom.judge.Observation;
import dev.headroom.testing.Needs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.judge.Classifier;
import dev.headroom.judge.ConfigCeilings;
import dev.headroom.judge.CostModel;
import dev.headroom.judge.Judgement;
import dev.headroom.judge.Observations;
import dev.headroom.judge.Thresholds;
import dev.headroom.read.CpuSource;
import dev.headroom.read.OshiCpuSource;
import dev.headroom.read.ProcStatCpuSource;
import dev.headroom.testing.ChildJvm;
import dev.headroom.sample.Sample;
import dev.headroom.sample.Sampler;
import dev.headroom.config.Config;
import dev.headroom.config.TestConfig;
import dev.headroom.testing.FakeClock;
import dev.headroom.testing.FixtureTree;
import dev.headroom.testing.Tools;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import dev.headroom.serve.web.Refusals;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole {@code /metrics} text for each fixture peer after the same second of traffic, against a golden
 * file; and promtool's lint of that text. Regenerate with {@code -Dheadroom.golden.update=true} and review
 * the diff.
 */
class GoldenMetricsTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"kernel", "userspace", "notunnel", "offline-cpu"})
  void wholeMetricsOutputMatchesGolden(String fixture) throws Exception {
    // In a JVM of its own, whose OSHI reads the fixture tree as the daemon's reads /sys and /proc on a peer.
    String text = ChildJvm.run(Render.class, fixture, dir.toString());
    Path golden = Path.of("src/test/resources/golden", fixture + ".prom");
    if (Boolean.getBoolean("headroom.golden.update")) {
      Files.createDirectories(golden.getParent());
      Files.writeString(golden, text);
    }
    assertEquals(Files.readString(golden), text, "metrics of fixture " + fixture + " differ from " + golden);
  }

  @Tag(Needs.PROMTOOL)
  @ParameterizedTest
  @ValueSource(strings = {"kernel", "userspace", "notunnel", "offline-cpu"})
  void promtoolFindsNothingToLint(String fixture) throws IOException {
    assertEquals("", Tools.promtoolCheckMetrics(render(fixture)));
  }

  @Test
  void anyNumberOfScrapersOfOneSnapshotReadTheSameMetricsPeaksIncluded() throws IOException {
    // Two Prometheus servers of an HA pair, and a debugging curl between them: none takes anything from the others.
    Published p = published("kernel", dir);
    String first = render(p);
    String second = render(p);
    String third = render(p);
    assertEquals(first, second);
    assertEquals(first, third);
    assertTrue(first.contains("headroom_tunnel_peak_throughput_bytes_per_second{direction=\"download\",window=\"sliding\"} 3.125E8"),
        "the second's peak is in every scrape");
  }

  private String render(String fixture) throws IOException {
    return render(published(fixture, dir));
  }

  /** Prints a fixture peer's metrics, its CPU read through {@link CpuSource#forRoots} as the daemon reads it. */
  static final class Render {
    public static void main(String[] args) throws IOException {
      System.out.print(render(published(args[0], Path.of(args[1]), true)));
    }
  }

  private static String render(Published p) throws IOException {
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(collector(p));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, registry.scrape(), EscapingScheme.ALLOW_UTF8);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** headroom's collector over {@code p}, with the golden files' build and placement. */
  static HeadroomMetrics collector(Published p) {
    return new HeadroomMetrics(() -> p, new HeadroomMetrics.ExporterInfo("test", "dc-east", "eu-west", "wt0", 0.9),
        new Refusals());
  }

  /** The state of the fixture peer after one second of the same traffic, as every golden file shows it. */
  static Published published(String fixture, Path dir) throws IOException {
    return published(fixture, dir, false);
  }

  /**
   * @param production the CPU read as the daemon reads it (OSHI pointed at the fixture: only the first fixture
   *     tree of a JVM), else by the procfs parser
   */
  private static Published published(String fixture, Path dir, boolean production) throws IOException {
    FixtureTree t = FixtureTree.copy(fixture, dir.resolve(fixture));
    CpuSource cpu = production ? CpuSource.forRoots(t.sys(), t.proc()) : new ProcStatCpuSource(t.sys(), t.proc());
    if (production && !(cpu instanceof OshiCpuSource)) {
      throw new IllegalStateException("OSHI does not read the fixture tree " + t.sys().getParent());
    }
    FakeClock clock = new FakeClock();
    Config settings = fixture.equals("kernel")
        ? TestConfig.fixture(t.sys(), t.proc(), "--underlay.line-rate=10gbit") : TestConfig.fixture(t.sys(), t.proc());
    Sampler sampler = new Sampler(settings, cpu, clock, () -> 1_764_460_800_000L,
        Runnable::run, null);
    sampler.sample();
    if (!fixture.equals("notunnel")) {
      t.traffic("wt0", 312_500_000, 250_000, 62_500_000, 100_000);
    }
    t.traffic("eth0", 330_000_000, 250_500, 66_000_000, 100_200);
    int[] cpus = fixture.equals("offline-cpu") ? new int[] {0, 1, 3} : new int[] {0, 1, 2, 3};
    for (int c : cpus) {
      t.addCpuTicks(c, 20 + c * 10, 0, 10, 60 - c * 10, 0, 0, 10, 0);
    }
    clock.advanceSeconds(1);
    Sample s = sampler.sample();
    Observation o = Observations.from(s, Double.NaN, false);
    // The cost learned from that second (needed: one second), so the files show the cost's figures as a peer does.
    CostModel cost = new CostModel(java.time.Duration.ofSeconds(1), null);
    cost.feed(o, Thresholds.defaults().trafficFloorBytesPerSecond(), 0);
    Judgement j = new Classifier(Thresholds.defaults()).observe(o,
        CeilingSelector.selectBoth(o, null, ConfigCeilings.NONE, Map.of(), cost.estimate(o)));
    return new Published(s, j, null,
        SamplerTiming.NONE, Learned.NONE);
  }
}
