package dev.headroom.judge;

import static dev.headroom.judge.Units.bytesPerSecond;
import static dev.headroom.sample.Direction.DOWNLOAD;
import static dev.headroom.sample.Direction.UPLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.Datapath;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One CPU carries both directions: when it is full for one, the other is not read as having room. */
class SharedCpuTest {
  private static final double G = Units.BYTES_PER_GBPS;

  private static double[] cores(int n, double busy) {
    double[] b = new double[n];
    Arrays.fill(b, busy);
    return b;
  }

  private static Judgement feed(Classifier c, Observation o, int n) {
    Judgement j = null;
    for (int i = 0; i < n; i++) {
      j = ClassifierTest.judge(c, o);
    }
    return j;
  }

  private static Classifier classifier() {
    return new Classifier(Thresholds.defaults());
  }

  /** 4 cores on 10 GbE: 6.6 Gbps download, 0.93 Gbps upload, 3.8 cores busy. */
  private static Observation fourCoreMixed() {
    double f = 1354.0 / 1280 / 10;
    return Observation.builder(Datapath.KERNEL, 4).underlayMtu(1500).lineRate(bytesPerSecond(10))
        .throughput(6.6 * G, 0.93 * G).underlayUtilization(6.6 * f, 0.93 * f).coreBusy(cores(4, 0.95)).build();
  }

  @Test
  void theMinorDirectionOfASaturatedCpuIsCpuBoundTooWithNoRoomEitherWay() {
    Judgement j = feed(classifier(), fourCoreMixed(), 3);
    assertEquals(Cause.CORES_SATURATED, j.of(DOWNLOAD).cause());
    assertEquals(Cause.CPU_SHARED, j.of(UPLOAD).cause());
    assertEquals(Verdict.CPU_BOUND, j.of(UPLOAD).verdict());
    assertEquals(List.of(new AdviceItem(Advice.SCALE_UP, DOWNLOAD, Ground.BELOW_KNEE)), j.advice());
    assertEquals(0, j.of(DOWNLOAD).spare().bytesPerSecond(), 1e-9);
    assertEquals(0, j.of(UPLOAD).spare().bytesPerSecond(), 1e-9);
  }

  @Test
  void anIdleDirectionBesideASaturatedCpuHasNoRoomEither() {
    Observation o = Observation.builder(Datapath.KERNEL, 8).throughput(12 * G, 1000).coreBusy(cores(8, 0.96)).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Cause.CPU_SHARED, j.of(UPLOAD).cause(), "a backup started now would take CPU from download");
    assertTrue(j.of(UPLOAD).spare().bytesPerSecond() < 0.05 * j.of(UPLOAD).ceiling().bytesPerSecond());
  }

  @Test
  void aCpuBusyWithOtherWorkBesideAnIdleTunnelIsNotShared() {
    Observation o = Observation.builder(Datapath.KERNEL, 8).throughput(1000, 200).coreBusy(cores(8, 1.0)).build();
    Judgement j = feed(classifier(), o, 5);
    assertEquals(Cause.IDLE, j.of(DOWNLOAD).cause());
    assertEquals(Cause.IDLE, j.of(UPLOAD).cause());
    assertEquals(0, j.of(DOWNLOAD).spare().bytesPerSecond(), 1e-9, "but the spare says the CPU is full");
  }

  @Test
  void aUserspaceDatapathAtItsPlateauSharesItWithTheOtherDirection() {
    Observation o = Observation.builder(Datapath.USERSPACE, 4).underlayMtu(1500).lineRate(bytesPerSecond(25))
        .throughput(6.5 * G, 0.2 * G).coreBusy(0.99, 0.55, 0.45, 0.3).datapathCpuCores(2.2).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Cause.AT_CEILING, j.of(DOWNLOAD).cause());
    assertEquals(Cause.CPU_SHARED, j.of(UPLOAD).cause());
    assertTrue(j.adviceSet().contains(Advice.ENABLE_KERNEL_WIREGUARD));
    assertTrue(j.advice().stream().allMatch(a -> a.about().orElse(DOWNLOAD) == DOWNLOAD), j.advice().toString());
  }

  @Test
  void kernelUploadAtTheKneeLeavesDownloadItsRoom() {
    double[] busy = cores(32, 0.04);
    Arrays.fill(busy, 0, 8, 0.97);
    Observation o = Observation.builder(Datapath.KERNEL, 32).underlayMtu(1500).lineRate(bytesPerSecond(100))
        .throughput(0.4 * G, 14.5 * G).underlayUtilization(0.01, 0.16).coreBusy(busy).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Cause.AT_CEILING, j.of(UPLOAD).cause());
    assertEquals(Cause.ROOM, j.of(DOWNLOAD).cause(), "decryption does not spread; encryption still has 24 cores");
    assertEquals(0.5, j.of(UPLOAD).spare().bytesPerSecond() / G, 1e-9);
    assertEquals(SpareCapacity.Bound.CEILING, j.of(UPLOAD).spare().bound());
    assertTrue(j.of(DOWNLOAD).spare().bytesPerSecond() / G > 15, j.of(DOWNLOAD).spare().toString());
  }

  @Test
  void aFullLinkOnASaturatedCpuSharesItToo() {
    Observation o = Observation.builder(Datapath.KERNEL, 2).underlayMtu(1500).lineRate(bytesPerSecond(1))
        .throughput(0.9 * G, 0.05 * G).underlayUtilization(0.96, 0.06).coreBusy(cores(2, 0.97)).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Cause.LINK_FULL, j.of(DOWNLOAD).cause());
    assertEquals(Cause.CPU_SHARED, j.of(UPLOAD).cause());
  }

  @Test
  void theSharedVerdictEndsWithTheSaturation() {
    Classifier c = classifier();
    feed(c, fourCoreMixed(), 3);
    Observation eased = Observation.builder(Datapath.KERNEL, 4).underlayMtu(1500).lineRate(bytesPerSecond(10))
        .throughput(2 * G, 0.93 * G).underlayUtilization(0.21, 0.1).coreBusy(cores(4, 0.5)).build();
    assertEquals(Cause.CPU_SHARED, ClassifierTest.judge(c, eased).of(UPLOAD).cause(), "debounced: one sample does not end it");
    Judgement j = feed(c, eased, 3);
    assertEquals(Cause.ROOM, j.of(UPLOAD).cause());
    assertEquals(Verdict.HEADROOM, j.of(DOWNLOAD).verdict());
    // 2/7 + 0.93/4 = 0.52 of the CPU in use: 48 % of each ceiling left.
    assertEquals((1 - 2.0 / 7 - 0.93 / 4) * 4, j.of(UPLOAD).spare().bytesPerSecond() / G, 1e-9);
  }

  @Test
  void anUnknownRateHoldsTheCauseAndClaimsNoSpare() {
    Classifier c = classifier();
    feed(c, fourCoreMixed(), 3);
    Observation unknown = Observation.builder(Datapath.KERNEL, 4).throughput(Double.NaN, Double.NaN)
        .coreBusy(cores(4, 0.95)).build();
    Judgement j = ClassifierTest.judge(c, unknown);
    assertEquals(Cause.CPU_SHARED, j.of(UPLOAD).cause());
    assertTrue(Double.isNaN(j.of(UPLOAD).spare().bytesPerSecond()));
  }
}
