package dev.headroom.judge;

import static dev.headroom.judge.Units.bytesPerSecond;
import static dev.headroom.sample.Direction.DOWNLOAD;
import static dev.headroom.sample.Direction.UPLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.Datapath;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.DoubleFunction;
import org.junit.jupiter.api.Test;

class ClassifierTest {
  private static final double GBPS = Units.BYTES_PER_GBPS;

  private static double[] cores(int n, double busy) {
    double[] b = new double[n];
    Arrays.fill(b, busy);
    return b;
  }

  private static Classifier classifier() {
    return new Classifier(Thresholds.defaults(), null, ConfigCeilings.NONE);
  }

  /** Feeds the same observation n times and returns the last judgement. */
  private static Judgement feed(Classifier c, Observation o, int n) {
    Judgement j = null;
    for (int i = 0; i < n; i++) {
      j = c.observe(o);
    }
    return j;
  }

  private static Observation.Builder kernel(int n) {
    return Observation.builder(Datapath.KERNEL, n).underlayMtu(1500).lineRate(bytesPerSecond(100))
        .underlayUtilization(0.1, 0.02);
  }

  @Test
  void kernelPeerWithEveryCoreBusyIsCpuBoundInTheBusyDirectionAndShouldScaleUpBelowSixteenCores() {
    Observation o = kernel(8).throughput(12 * GBPS, 0.3 * GBPS).coreBusy(cores(8, 0.96)).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Verdict.CPU_BOUND, j.of(DOWNLOAD).verdict());
    assertEquals(Verdict.HEADROOM, j.of(UPLOAD).verdict(), "upload carries too small a share to be judged by CPU");
    assertEquals(Set.of(Advice.SCALE_UP), j.adviceSet());
    String reason = j.advice().get(0).reason();
    assertTrue(reason.contains("8 cores") && reason.contains("20 Gbps") && reason.contains("12 Gbps"), reason);
    assertEquals(12.0 / 13.0, j.of(DOWNLOAD).utilization(), 1e-9);
    assertTrue(j.of(DOWNLOAD).reason().contains("96% busy"), j.of(DOWNLOAD).reason());
  }

  @Test
  void aVerdictNeedsThreeSamplesInARow() {
    Classifier c = classifier();
    Observation busy = kernel(8).throughput(12 * GBPS, 0).coreBusy(cores(8, 0.96)).build();
    assertEquals(Verdict.HEADROOM, c.observe(busy).of(DOWNLOAD).verdict());
    assertEquals(Verdict.HEADROOM, c.observe(busy).of(DOWNLOAD).verdict());
    assertEquals(Verdict.CPU_BOUND, c.observe(busy).of(DOWNLOAD).verdict());
  }

  @Test
  void cpuBoundAtOrPastSixteenCoresMeansScaleOutAndUploadSaysDecryptionFlattens() {
    Judgement down = feed(classifier(), kernel(32).throughput(24 * GBPS, GBPS).coreBusy(cores(32, 0.95)).build(), 3);
    assertEquals(Verdict.CPU_BOUND, down.of(DOWNLOAD).verdict());
    assertEquals(Set.of(Advice.SCALE_OUT), down.adviceSet());

    Judgement up = feed(classifier(), kernel(16).throughput(GBPS, 14 * GBPS).coreBusy(cores(16, 0.97)).build(), 3);
    assertEquals(Verdict.CPU_BOUND, up.of(UPLOAD).verdict());
    assertEquals(Verdict.HEADROOM, up.of(DOWNLOAD).verdict());
    assertEquals(Set.of(Advice.SCALE_OUT), up.adviceSet());
    assertTrue(up.advice().get(0).reason().contains("15 Gbps upload from 16 cores"), up.advice().get(0).reason());
  }

  @Test
  void balancedTrafficMakesBothDirectionsCpuBound() {
    Judgement j = feed(classifier(), kernel(4).throughput(3 * GBPS, 2.5 * GBPS).coreBusy(cores(4, 0.99)).build(), 3);
    assertEquals(Verdict.CPU_BOUND, j.of(DOWNLOAD).verdict());
    assertEquals(Verdict.CPU_BOUND, j.of(UPLOAD).verdict());
  }

  @Test
  void cpuLoadHoveringAroundTheThresholdDoesNotFlap() {
    Classifier c = classifier();
    DoubleFunction<Observation> at = busy -> kernel(8).throughput(12 * GBPS, 0).coreBusy(cores(8, busy)).build();
    // Alternating just above and just below the enter threshold never enters: the streak keeps resetting.
    List<Verdict> entering = new ArrayList<>();
    for (double b : new double[] {0.91, 0.89, 0.92, 0.88, 0.91, 0.89, 0.93, 0.87}) {
      entering.add(c.observe(at.apply(b)).of(DOWNLOAD).verdict());
    }
    assertFalse(entering.contains(Verdict.CPU_BOUND), entering.toString());
    // Once in, dipping between exit (0.80) and enter (0.90) keeps it in.
    feed(c, at.apply(0.95), 3);
    List<Verdict> holding = new ArrayList<>();
    for (double b : new double[] {0.89, 0.85, 0.91, 0.82, 0.88, 0.84, 0.90, 0.81}) {
      holding.add(c.observe(at.apply(b)).of(DOWNLOAD).verdict());
    }
    assertEquals(List.of(Verdict.CPU_BOUND), holding.stream().distinct().toList(), holding.toString());
    // Two samples below exit are a blip; the third in a row releases it.
    assertEquals(Verdict.CPU_BOUND, c.observe(at.apply(0.5)).of(DOWNLOAD).verdict());
    assertEquals(Verdict.CPU_BOUND, c.observe(at.apply(0.5)).of(DOWNLOAD).verdict());
    assertEquals(Verdict.CPU_BOUND, c.observe(at.apply(0.95)).of(DOWNLOAD).verdict());
    assertEquals(Verdict.CPU_BOUND, c.observe(at.apply(0.5)).of(DOWNLOAD).verdict());
    assertEquals(Verdict.CPU_BOUND, c.observe(at.apply(0.5)).of(DOWNLOAD).verdict());
    assertEquals(Verdict.HEADROOM, c.observe(at.apply(0.5)).of(DOWNLOAD).verdict());
  }

  @Test
  void linkUtilizationHoveringAroundTheThresholdDoesNotFlap() {
    Classifier c = classifier();
    DoubleFunction<Observation> at = u -> kernel(16).lineRate(bytesPerSecond(10)).throughput(8 * GBPS, 0)
        .underlayUtilization(u, 0.01).coreBusy(cores(16, 0.3)).build();
    feed(c, at.apply(0.95), 3);
    List<Verdict> seen = new ArrayList<>();
    for (double u : new double[] {0.89, 0.91, 0.81, 0.92, 0.85, 0.95, 0.80, 0.88}) {
      seen.add(c.observe(at.apply(u)).of(DOWNLOAD).verdict());
    }
    assertEquals(List.of(Verdict.LINK_BOUND), seen.stream().distinct().toList(), seen.toString());
    feed(c, at.apply(0.5), 3);
    assertEquals(Verdict.HEADROOM, c.observe(at.apply(0.89)).of(DOWNLOAD).verdict(), "0.89 is below enter");
  }

  @Test
  void linkBoundWithCpuToSpareAdvisesABiggerInterfaceSizedByTheReference() {
    Observation o = kernel(16).lineRate(bytesPerSecond(10)).throughput(9.3 * GBPS, 0.2 * GBPS)
        .underlayUtilization(0.97, 0.30).coreBusy(cores(16, 0.35)).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Verdict.LINK_BOUND, j.of(DOWNLOAD).verdict());
    assertEquals(Verdict.HEADROOM, j.of(UPLOAD).verdict(), "upload reads the receive side, which has room");
    assertEquals(Set.of(Advice.BIGGER_INTERFACE), j.adviceSet());
    String reason = j.advice().get(0).reason();
    assertTrue(reason.contains("10 Gbps") && reason.contains("25 Gbps interface") && reason.contains("97%"), reason);
    assertTrue(j.of(DOWNLOAD).reason().contains("transmit at 97%"), j.of(DOWNLOAD).reason());
    assertEquals(CeilingSource.REFERENCE, j.of(DOWNLOAD).ceiling().source());
    assertTrue(j.of(DOWNLOAD).ceiling().basis().endsWith("capped by 10 Gbps NIC"));
  }

  @Test
  void uploadLinkBoundReadsTheReceiveSide() {
    Observation o = kernel(16).lineRate(bytesPerSecond(10)).throughput(0.1 * GBPS, 9 * GBPS)
        .underlayUtilization(0.05, 0.96).coreBusy(cores(16, 0.3)).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Verdict.LINK_BOUND, j.of(UPLOAD).verdict());
    assertEquals(Verdict.HEADROOM, j.of(DOWNLOAD).verdict());
  }

  @Test
  void linkBoundOnTheLargestNicOrWithTheCpuFullMeansScaleOut() {
    Observation top = kernel(64).lineRate(bytesPerSecond(100)).tunnelMtu(8920).underlayMtu(9001)
        .throughput(95 * GBPS, 0).underlayUtilization(0.97, 0.01).coreBusy(cores(64, 0.6)).build();
    Judgement j = feed(classifier(), top, 3);
    assertEquals(Verdict.LINK_BOUND, j.of(DOWNLOAD).verdict());
    assertEquals(Set.of(Advice.SCALE_OUT), j.adviceSet());
    assertTrue(j.advice().get(0).reason().contains("no bigger one"));

    Observation both = kernel(2).lineRate(bytesPerSecond(2.5)).throughput(2.3 * GBPS, 0)
        .underlayUtilization(0.96, 0.01).coreBusy(cores(2, 0.97)).build();
    Judgement k = feed(classifier(), both, 3);
    assertEquals(Verdict.LINK_BOUND, k.of(DOWNLOAD).verdict(), "the link is named first when both are full");
    assertEquals(Set.of(Advice.SCALE_OUT), k.adviceSet());
  }

  @Test
  void userspaceProcessAtTheCoresItCanUseIsCpuBoundWithIdleCoresAndShouldMoveToKernel() {
    double[] busy = cores(16, 0.05);
    for (int i = 0; i < 4; i++) {
      busy[i] = 0.97;
    }
    Observation o = Observation.builder(Datapath.USERSPACE, 16).throughput(3.2 * GBPS, 0.1 * GBPS)
        .coreBusy(busy).datapathCpuCores(3.9).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Verdict.CPU_BOUND, j.of(DOWNLOAD).verdict());
    assertEquals(Set.of(Advice.ENABLE_KERNEL_WIREGUARD), j.adviceSet());
    assertTrue(j.of(DOWNLOAD).reason().contains("3.9 of the ~4 cores"), j.of(DOWNLOAD).reason());
    assertTrue(j.advice().get(0).reason().contains("20 Gbps on 16 cores"), j.advice().get(0).reason());
  }

  @Test
  void smallUserspacePeerCpuBoundShouldAlsoScaleUp() {
    Observation o = Observation.builder(Datapath.USERSPACE, 2).throughput(1.5 * GBPS, 0)
        .coreBusy(0.96, 0.94).datapathCpuCores(1.85).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Verdict.CPU_BOUND, j.of(DOWNLOAD).verdict());
    assertEquals(EnumSet.of(Advice.SCALE_UP, Advice.ENABLE_KERNEL_WIREGUARD), j.adviceSet());
  }

  @Test
  void userspaceProcessPinnedToOneCoreIsCpuBoundWhenItsLimitIsKnown() {
    Observation.Builder b = Observation.builder(Datapath.USERSPACE, 2).throughput(0.3 * GBPS, 0)
        .coreBusy(0.99, 0.2).datapathCpuCores(0.97);
    assertEquals(Verdict.SINGLE_TUNNEL_BOUND, feed(classifier(), b.build(), 3).of(DOWNLOAD).verdict(),
        "without the limit one pegged core of two reads as one tunnel");
    assertEquals(Verdict.CPU_BOUND, feed(classifier(), b.datapathCpuLimitCores(1).build(), 3).of(DOWNLOAD).verdict());
  }

  @Test
  void userspaceNearItsPlateauAdvisesKernelWireguardEvenWithHeadroomLeft() {
    double[] busy = cores(8, 0.1);
    busy[0] = 0.7;
    busy[1] = 0.7;
    Observation o = Observation.builder(Datapath.USERSPACE, 8).throughput(6.3 * GBPS, 0.1 * GBPS)
        .coreBusy(busy).datapathCpuCores(2.5).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Verdict.HEADROOM, j.of(DOWNLOAD).verdict());
    assertEquals(Set.of(Advice.ENABLE_KERNEL_WIREGUARD), j.adviceSet());
    assertTrue(j.advice().get(0).reason().contains("6.3 Gbps"), j.advice().get(0).reason());

    Observation modest = Observation.builder(Datapath.USERSPACE, 8).throughput(2 * GBPS, 0.1 * GBPS)
        .coreBusy(cores(8, 0.1)).datapathCpuCores(0.8).build();
    assertEquals(Set.of(Advice.NONE), feed(classifier(), modest, 3).adviceSet());
  }

  @Test
  void onePeggedCoreWithTheOthersIdleIsOneTunnelAndNeedsNoSizingAdvice() {
    double[] busy = cores(8, 0.08);
    busy[5] = 0.99;
    Observation o = kernel(8).throughput(2.8 * GBPS, 0.05 * GBPS).coreBusy(busy).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Verdict.SINGLE_TUNNEL_BOUND, j.of(DOWNLOAD).verdict());
    assertEquals(Verdict.HEADROOM, j.of(UPLOAD).verdict());
    assertEquals(Set.of(Advice.NONE), j.adviceSet());
    assertTrue(j.advice().get(0).reason().contains("one tunnel"), j.advice().get(0).reason());
    assertTrue(j.of(DOWNLOAD).reason().contains("99% busy"), j.of(DOWNLOAD).reason());
  }

  @Test
  void singleTunnelNeedsTheHottestTunnelToCarryMostOfTheTrafficWhenThatIsKnown() {
    double[] busy = cores(8, 0.08);
    busy[5] = 0.99;
    Observation.Builder b = kernel(8).throughput(2.8 * GBPS, 0).coreBusy(busy);
    assertEquals(Verdict.HEADROOM,
        feed(classifier(), b.hottestTunnel(0.4 * GBPS, 0).build(), 3).of(DOWNLOAD).verdict());
    Judgement j = feed(classifier(), b.hottestTunnel(2.5 * GBPS, 0).build(), 3);
    assertEquals(Verdict.SINGLE_TUNNEL_BOUND, j.of(DOWNLOAD).verdict());
    assertTrue(j.of(DOWNLOAD).reason().contains("busiest tunnel carries 89%"), j.of(DOWNLOAD).reason());
  }

  @Test
  void jumboUnderlayWithDefaultTunnelMtuAdvisesRaisingItWhenBound() {
    Observation.Builder b = kernel(8).underlayMtu(9001).throughput(12 * GBPS, 0).coreBusy(cores(8, 0.96));
    Judgement j = feed(classifier(), b.build(), 3);
    assertEquals(EnumSet.of(Advice.SCALE_UP, Advice.RAISE_MTU), j.adviceSet());
    assertTrue(j.advice().get(1).reason().contains("9001") && j.advice().get(1).reason().contains("8192"));
    assertEquals(EnumSet.of(Advice.SCALE_UP), feed(classifier(), b.tunnelMtu(8000).build(), 3).adviceSet());
    Observation idle = kernel(8).underlayMtu(9001).throughput(GBPS, 0).coreBusy(cores(8, 0.1)).build();
    assertEquals(Set.of(Advice.NONE), feed(classifier(), idle, 3).adviceSet(), "not bound: nothing to raise");
  }

  @Test
  void aBusyCpuWithoutTunnelTrafficIsNotJudgedBound() {
    Observation stress = kernel(8).throughput(1000, 200).coreBusy(cores(8, 1.0)).build();
    Judgement j = feed(classifier(), stress, 5);
    assertEquals(Verdict.HEADROOM, j.of(DOWNLOAD).verdict());
    assertEquals(Verdict.HEADROOM, j.of(UPLOAD).verdict());
    assertTrue(j.of(DOWNLOAD).reason().contains("idle"), j.of(DOWNLOAD).reason());
    assertEquals(Set.of(Advice.NONE), j.adviceSet());
  }

  @Test
  void anAbsentDatapathIsNeverBound() {
    Observation o = Observation.builder(Datapath.ABSENT, 4).coreBusy(cores(4, 1.0)).underlayUtilization(1, 1).build();
    Judgement j = feed(classifier(), o, 5);
    assertEquals(Verdict.HEADROOM, j.of(DOWNLOAD).verdict());
    assertEquals(Set.of(Advice.NONE), j.adviceSet());
    assertTrue(j.of(UPLOAD).reason().contains("no tunnel datapath"));
  }

  @Test
  void withHeadroomTheAdviceIsNoneAndSaysHowFar() {
    Observation o = kernel(16).throughput(2 * GBPS, 0.75 * GBPS).coreBusy(cores(16, 0.2)).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Verdict.HEADROOM, j.of(DOWNLOAD).verdict());
    assertEquals(List.of(new AdviceItem(Advice.NONE,
        "nothing to do: download at 10% and upload at 5% of their ceilings")), j.advice());
  }

  @Test
  void aMatchingProfileSetsTheCeilingAndCanBeReplaced() {
    MeasuredProfile p = new MeasuredProfile(OptionalDouble.of(4 * GBPS), Limit.CPU, OptionalDouble.of(2 * GBPS),
        Limit.CPU, 16, Datapath.KERNEL, 1280, Instant.EPOCH);
    Classifier c = new Classifier(Thresholds.defaults(), p, ConfigCeilings.NONE);
    Observation o = kernel(16).throughput(2 * GBPS, GBPS).coreBusy(cores(16, 0.2)).build();
    Judgement j = c.observe(o);
    assertEquals(CeilingSource.PROFILE, j.of(DOWNLOAD).ceiling().source());
    assertEquals(0.5, j.of(DOWNLOAD).utilization(), 1e-9);
    c.setProfile(null);
    assertEquals(CeilingSource.REFERENCE, c.observe(o).of(DOWNLOAD).ceiling().source());
  }

  @Test
  void cpuSaturationFlagMovesTheThresholds() {
    Classifier c = new Classifier(Thresholds.defaults().withCpuSaturation(0.75), null, ConfigCeilings.NONE);
    Observation o = kernel(8).throughput(10 * GBPS, 0).coreBusy(cores(8, 0.8)).build();
    assertEquals(Verdict.CPU_BOUND, feed(c, o, 3).of(DOWNLOAD).verdict());
    assertEquals(Verdict.HEADROOM, feed(classifier(), o, 3).of(DOWNLOAD).verdict());
  }

  @Test
  void theObservationKeepsItsOwnCopyOfTheCoreRatios() {
    double[] busy = {0.1, 0.2};
    Observation o = Observation.builder(Datapath.KERNEL, 2).coreBusy(busy).build();
    busy[0] = 1.0;
    o.coreBusy()[1] = 1.0;
    assertEquals(0.15, o.meanBusy(), 1e-9);
    assertEquals(o, Observation.builder(Datapath.KERNEL, 2).coreBusy(0.1, 0.2).build());
  }

  @Test
  void userspaceProcessPinnedToOneFullCoreIsCpuBoundWhileTheOtherCoreIdles() {
    // wireguard-go pinned to cpu1, which it shares with a hog: it gets half the core, cpu0 idles.
    Observation o = Observation.builder(Datapath.USERSPACE, 2).underlayMtu(1500).lineRate(bytesPerSecond(1))
        .underlayUtilization(0.2, 0.01).throughput(0.2 * GBPS, 0.005 * GBPS).coreBusy(0.10, 1.0)
        .datapathCpuCores(0.5).datapathCpuLimitCores(1).datapathAllowedBusy(1.0).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Verdict.CPU_BOUND, j.of(DOWNLOAD).verdict());
    assertTrue(j.adviceSet().contains(Advice.ENABLE_KERNEL_WIREGUARD), j.advice().toString());
  }

  @Test
  void aLinkBoundUserspaceDirectionIsNotCalledNearThePlateau() {
    // 100 Mbit line rate caps the ceiling: utilization is ~100 % of the link, not of wireguard-go.
    Observation o = Observation.builder(Datapath.USERSPACE, 2).underlayMtu(1500).lineRate(bytesPerSecond(0.1))
        .underlayUtilization(0.97, 0.02).throughput(0.0115 * GBPS, 0.0002 * GBPS).coreBusy(0.2, 0.15)
        .datapathCpuCores(0.1).build();
    Judgement j = feed(classifier(), o, 4);
    assertEquals(Verdict.LINK_BOUND, j.of(DOWNLOAD).verdict());
    assertFalse(j.adviceSet().contains(Advice.ENABLE_KERNEL_WIREGUARD), j.advice().toString());
  }

  @Test
  void aCorePeggedByOtherWorkBesideALightTunnelIsNotSingleTunnelBound() {
    Observation o = Observation.builder(Datapath.USERSPACE, 2).underlayMtu(1500).lineRate(bytesPerSecond(1))
        .underlayUtilization(0.01, 0.0).throughput(0.0125 * GBPS, 0.0002 * GBPS).coreBusy(1.0, 0.2)
        .datapathCpuCores(0.06).hottestTunnel(0.0125 * GBPS, 0.0002 * GBPS).build();
    assertEquals(Verdict.HEADROOM, feed(classifier(), o, 5).of(DOWNLOAD).verdict());
    Observation tunnel = Observation.builder(Datapath.USERSPACE, 2).underlayMtu(1500).lineRate(bytesPerSecond(1))
        .underlayUtilization(0.3, 0.0).throughput(0.3 * GBPS, 0.005 * GBPS).coreBusy(1.0, 0.2)
        .datapathCpuCores(0.95).hottestTunnel(0.3 * GBPS, 0.005 * GBPS).build();
    assertEquals(Verdict.SINGLE_TUNNEL_BOUND, feed(classifier(), tunnel, 5).of(DOWNLOAD).verdict());
  }
}
