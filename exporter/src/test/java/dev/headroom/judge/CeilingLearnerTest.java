package dev.headroom.judge;

import static dev.headroom.sample.Direction.DOWNLOAD;
import static dev.headroom.sample.Direction.UPLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The learner fed as the daemon feeds it, one sample a second on a fake clock: ceilings chosen with what it
 * allows, the classifier's judgement, then the update.
 */
class CeilingLearnerTest {
  private static final double GBPS = Units.BYTES_PER_GBPS;
  private static final Duration LEARN_AFTER = Duration.ofMinutes(3);

  /** The daemon's loop over a learner, with config ceilings (NONE for none). */
  private static final class Loop {
    final Classifier classifier = new Classifier(Thresholds.defaults());
    final CeilingLearner learner;
    final ConfigCeilings config;
    long nanos = 1_000_000_000L;
    CeilingLearner.Update last;
    int saves;

    Loop(StateFile.Contents restored, ConfigCeilings config, String cpu) {
      learner = new CeilingLearner(LEARN_AFTER, java.time.Duration.ofMinutes(1), Thresholds.defaults(), cpu, restored);
      this.config = config;
    }

    Loop() {
      this(null, ConfigCeilings.NONE, "Test CPU @ 2.0GHz");
    }

    Judgement step(Observation o) {
      CeilingLearner.Known known = learner.known(o);
      Judgement j = classifier.observe(o, CeilingSelector.selectBoth(o, null, config, known.observed(), known.cost()));
      last = learner.update(known, j, nanos, Instant.ofEpochSecond(1_800_000_000L + nanos / 1_000_000_000L));
      saves += last.save() ? 1 : 0;
      nanos += 1_000_000_000L;
      return j;
    }

    Judgement run(Observation o, int seconds) {
      Judgement j = null;
      for (int i = 0; i < seconds; i++) {
        j = step(o);
      }
      return j;
    }

    ObservedCeiling observed(Direction d) {
      return learner.contents().ceilings().get(d);
    }
  }

  private static double[] busy(int n, double b) {
    double[] c = new double[n];
    Arrays.fill(c, b);
    return c;
  }

  /** A 4-core kernel peer: every core busy (saturated) or half busy, at these rates. */
  private static Observation kernel4(double downGbps, double upGbps, double coreBusy) {
    return Observation.builder(Datapath.KERNEL, 4).underlayMtu(1500).lineRate(100 * GBPS)
        .underlayUtilization(0.1, 0.02).throughput(downGbps * GBPS, upGbps * GBPS).coreBusy(busy(4, coreBusy)).build();
  }

  private static double reference(Direction d) {
    return ReferenceProfile.ceiling(Datapath.KERNEL, 4, 1280, java.util.OptionalDouble.of(100 * GBPS), d)
        .bytesPerSecond();
  }

  @Test
  void aSaturationShorterThanTheMinimumTeachesNothing() {
    Loop l = new Loop();
    Judgement j = l.run(kernel4(1.2, 0.05, 0.97), 150);
    assertEquals(Cause.CORES_SATURATED, j.of(DOWNLOAD).cause());
    l.run(kernel4(0.3, 0.05, 0.3), 10);
    l.run(kernel4(1.2, 0.05, 0.97), 150);
    assertNull(l.observed(DOWNLOAD), "two episodes of 2.5 minutes are not one of 3");
    assertEquals(CeilingSource.REFERENCE, l.step(kernel4(1.2, 0.05, 0.97)).of(DOWNLOAD).ceiling().source());
  }

  @Test
  void aSustainedSaturationBecomesTheCeilingAtItsMedianRateNotItsPeak() {
    Loop l = new Loop();
    // Noisy around 1.2 Gbps, with one 1 s burst at 2 Gbps: the ceiling is what was held, not the burst.
    for (int i = 0; i < 200; i++) {
      double rate = i == 100 ? 2.0 : 1.2 + (i % 2 == 0 ? 0.02 : -0.02);
      l.step(kernel4(rate, 0.05, 0.97));
    }
    ObservedCeiling c = l.observed(DOWNLOAD);
    assertNotNull(c);
    assertEquals(1.2 * GBPS, c.bytesPerSecond(), 0.021 * GBPS);
    assertEquals(ObservedCeiling.From.CPU_SATURATED, c.from());
    assertTrue(c.episodeSeconds() >= 180 && c.episodeSeconds() <= 200, "episode " + c.episodeSeconds());
    assertNull(l.observed(UPLOAD), "upload carried too small a share of the CPU's work to learn from");
    Judgement j = l.step(kernel4(1.2, 0.05, 0.97));
    assertEquals(CeilingSource.OBSERVED, j.of(DOWNLOAD).ceiling().source());
    assertEquals(1.0, j.of(DOWNLOAD).utilization(), 0.02, "read against its own ceiling, not the table's");
    assertEquals(Verdict.CPU_BOUND, j.of(DOWNLOAD).verdict());
    assertTrue(l.saves >= 1, "learning something is saved at once");
  }

  @Test
  void aHigherLaterEpisodeRaisesTheCeilingAndALowerOneDoesNot() {
    Loop l = new Loop();
    l.run(kernel4(1.2, 0.05, 0.97), 200);
    l.run(kernel4(0.2, 0.05, 0.2), 10);
    l.run(kernel4(1.0, 0.05, 0.97), 400);
    assertEquals(1.2 * GBPS, l.observed(DOWNLOAD).bytesPerSecond(), 1, "a slower episode (other work on the CPU) leaves it");
    l.run(kernel4(0.2, 0.05, 0.2), 10);
    l.run(kernel4(1.5, 0.05, 0.97), 200);
    assertEquals(1.5 * GBPS, l.observed(DOWNLOAD).bytesPerSecond(), 1);
  }

  @Test
  void sustainingMoreThanTwentyPercentOverTheReferenceReplacesIt() {
    double ref = reference(DOWNLOAD);
    Loop l = new Loop();
    Observation fast = kernel4(1.4 * ref / GBPS, 0.05, 0.5);
    Judgement early = l.run(fast, 100);
    assertEquals(1.4, early.of(DOWNLOAD).utilization(), 0.01);
    l.run(fast, 100);
    ObservedCeiling c = l.observed(DOWNLOAD);
    assertNotNull(c, "cores half idle, but the table's figure is wrong for this CPU");
    assertEquals(ObservedCeiling.From.BEAT_CEILING, c.from());
    assertEquals(1.4 * ref, c.bytesPerSecond(), 1);
    Judgement j = l.step(fast);
    assertEquals(CeilingSource.OBSERVED, j.of(DOWNLOAD).ceiling().source());
    assertEquals(1.0, j.of(DOWNLOAD).utilization(), 1e-6);
  }

  @Test
  void tenPercentOverTheReferenceIsNoise() {
    double ref = reference(DOWNLOAD);
    Loop l = new Loop();
    l.run(kernel4(1.1 * ref / GBPS, 0.05, 0.5), 400);
    assertNull(l.observed(DOWNLOAD));
  }

  @Test
  void aConfiguredCeilingThePeerBeatsIsReportedAndKept() {
    Loop l = new Loop(null, new ConfigCeilings(java.util.OptionalDouble.of(1.0 * GBPS), java.util.OptionalDouble.empty()),
        "Test CPU");
    Judgement j = l.run(kernel4(1.5, 0.05, 0.5), 200);
    assertEquals(CeilingSource.CONFIG, j.of(DOWNLOAD).ceiling().source(), "config outranks what was observed");
    Learned learned = l.learner.snapshot(l.learner.known(j.observation()), Learned.Store.NONE);
    Learned.Beaten b = learned.beaten().get(DOWNLOAD);
    assertNotNull(b);
    assertEquals(CeilingSource.CONFIG, b.source());
    assertEquals(1.5 * GBPS, b.sustainedBytesPerSecond(), 1);
    assertEquals(1.0 * GBPS, b.ceilingBytesPerSecond(), 1);
  }

  @Test
  void theBeatenReportIsHandedOutOnceAnEpisode() {
    Loop l = new Loop(null, new ConfigCeilings(java.util.OptionalDouble.of(1.0 * GBPS), java.util.OptionalDouble.empty()),
        "Test CPU");
    int reports = 0;
    for (int i = 0; i < 400; i++) {
      l.step(kernel4(1.5, 0.05, 0.5));
      reports += l.last.newlyBeaten().size();
    }
    assertEquals(1, reports);
  }

  @Test
  void aChangeOfCoresStartsOverOnceItHolds() {
    Loop l = new Loop();
    l.run(kernel4(1.2, 0.05, 0.97), 200);
    assertNotNull(l.observed(DOWNLOAD));
    Observation six = Observation.builder(Datapath.KERNEL, 6).underlayMtu(1500).lineRate(100 * GBPS)
        .underlayUtilization(0.1, 0.02).throughput(1.2 * GBPS, 0.05 * GBPS).coreBusy(busy(6, 0.5)).build();
    Judgement j = l.run(six, CeilingLearner.SHAPE_SETTLE_SAMPLES - 1);
    assertEquals(CeilingSource.REFERENCE, j.of(DOWNLOAD).ceiling().source(), "another shape is never read against it");
    assertNotNull(l.observed(DOWNLOAD), "not yet forgotten: a shape read once may be a glitch");
    l.step(six);
    assertNull(l.observed(DOWNLOAD));
    assertTrue(l.last.save(), "the emptied state is saved");
    assertEquals(4.0, l.last.startedOver().orElseThrow().was().usableCores());
    assertEquals(6.0, l.last.startedOver().orElseThrow().now().usableCores());
    assertEquals(6.0, l.learner.contents().shape().usableCores());
  }

  @Test
  void aRestoredCeilingOfAnotherCpuModelIsNotUsed() {
    Loop first = new Loop();
    first.run(kernel4(1.2, 0.05, 0.97), 200);
    StateFile.Contents saved = first.learner.contents();
    Loop same = new Loop(saved, ConfigCeilings.NONE, "Test CPU @ 2.0GHz");
    assertEquals(CeilingSource.OBSERVED, same.step(kernel4(0.5, 0.05, 0.3)).of(DOWNLOAD).ceiling().source());
    Loop other = new Loop(saved, ConfigCeilings.NONE, "Other CPU @ 3.5GHz");
    assertEquals(CeilingSource.REFERENCE, other.step(kernel4(0.5, 0.05, 0.3)).of(DOWNLOAD).ceiling().source());
    other.run(kernel4(0.5, 0.05, 0.3), CeilingLearner.SHAPE_SETTLE_SAMPLES);
    assertTrue(other.learner.contents().ceilings().isEmpty());
    assertEquals("Other CPU @ 3.5GHz", other.learner.contents().shape().cpuModel());
  }

  @Test
  void noDatapathEndsTheEpisodeAndKeepsWhatItTaught() {
    Loop l = new Loop();
    l.run(kernel4(1.2, 0.05, 0.97), 200);
    Observation gone = Observation.builder(Datapath.ABSENT, 4).throughput(0, 0).coreBusy(busy(4, 0.1)).build();
    l.run(gone, 20);
    assertEquals(1.2 * GBPS, l.observed(DOWNLOAD).bytesPerSecond(), 1);
    assertEquals(CeilingSource.OBSERVED, l.step(kernel4(0.5, 0.05, 0.3)).of(DOWNLOAD).ceiling().source());
  }

  @Test
  void aDipOfAFewSamplesDoesNotEndAnEpisode() {
    Loop l = new Loop();
    for (int round = 0; round < 4; round++) {
      l.run(kernel4(1.2, 0.05, 0.97), 55);
      l.run(kernel4(1.2, 0.05, 0.5), 2);
    }
    assertNotNull(l.observed(DOWNLOAD), "four 55 s stretches with 2 s dips are one episode of nearly 4 minutes");
  }

  @Test
  void anEpisodeOfHoursKeepsItsMemoryBounded() {
    CeilingLearner.Episode e = new CeilingLearner.Episode(0);
    for (int i = 0; i < 100_000; i++) {
      e.feed(true, i * 1_000_000_000L, i < 50_000 ? 1.0 : 3.0, Double.NaN, 1280);
    }
    double m = e.median();
    assertTrue(m == 1.0 || m == 3.0 || m == 2.0, "median of two equal halves, decimated: " + m);
    assertEquals(99_999, e.seconds(), 1e-9);
  }
}
