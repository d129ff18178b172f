package dev.headroom.judge;

import static dev.headroom.judge.Units.bytesPerSecond;
import static dev.headroom.sample.Direction.DOWNLOAD;
import static dev.headroom.sample.Direction.UPLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.Datapath;
import dev.headroom.serve.Explainer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
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
    return new Classifier(Thresholds.defaults());
  }

  /** Judges one sample as the daemon does: the ceilings chosen for it from the profile and the configuration. */
  static Judgement judge(Classifier c, Observation o, MeasuredProfile profile, ConfigCeilings config) {
    return c.observe(o, CeilingSelector.selectBoth(o, profile, config, Map.of(), CostModel.Estimate.NONE));
  }

  /** Judges one sample against the built-in reference ceilings. */
  static Judgement judge(Classifier c, Observation o) {
    return judge(c, o, null, ConfigCeilings.NONE);
  }

  /** Feeds the same observation n times and returns the last judgement. */
  private static Judgement feed(Classifier c, Observation o, int n) {
    return feed(c, o, n, null, ConfigCeilings.NONE);
  }

  private static Judgement feed(Classifier c, Observation o, int n, MeasuredProfile profile, ConfigCeilings config) {
    Judgement j = null;
    for (int i = 0; i < n; i++) {
      j = judge(c, o, profile, config);
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
    assertEquals(Cause.CPU_SHARED, j.of(UPLOAD).cause(), "upload's small share shares the saturated CPU");
    assertEquals(Verdict.CPU_BOUND, j.of(UPLOAD).verdict());
    assertEquals(List.of(new AdviceItem(Advice.SCALE_UP, DOWNLOAD, Ground.BELOW_KNEE)), j.advice(),
        "the shared direction adds no advice of its own: the fix is the one for download");
    assertEquals(12.0 / 13.0, j.of(DOWNLOAD).utilization(), 1e-9);
    assertEquals(Cause.CORES_SATURATED, j.of(DOWNLOAD).cause(), "every core busy comes before the ceiling");
    assertEquals(8 * 0.96, j.observation().totalBusyCores(), 1e-9);
    assertEquals(8.0, j.usableCores());
  }

  @Test
  void aVerdictNeedsThreeSamplesInARow() {
    Classifier c = classifier();
    Observation busy = kernel(8).throughput(12 * GBPS, 0).coreBusy(cores(8, 0.96)).build();
    assertEquals(Verdict.HEADROOM, judge(c, busy).of(DOWNLOAD).verdict());
    assertEquals(Verdict.HEADROOM, judge(c, busy).of(DOWNLOAD).verdict());
    assertEquals(Verdict.CPU_BOUND, judge(c, busy).of(DOWNLOAD).verdict());
  }

  @Test
  void cpuBoundAtOrPastSixteenCoresMeansScaleOutAndUploadSaysDecryptionFlattens() {
    Judgement down = feed(classifier(), kernel(32).throughput(24 * GBPS, GBPS).coreBusy(cores(32, 0.95)).build(), 3);
    assertEquals(Verdict.CPU_BOUND, down.of(DOWNLOAD).verdict());
    assertEquals(Set.of(Advice.SCALE_OUT), down.adviceSet());

    Judgement up = feed(classifier(), kernel(16).throughput(GBPS, 14 * GBPS).coreBusy(cores(16, 0.97)).build(), 3);
    assertEquals(Verdict.CPU_BOUND, up.of(UPLOAD).verdict());
    assertEquals(Cause.CPU_SHARED, up.of(DOWNLOAD).cause());
    assertEquals(List.of(new AdviceItem(Advice.SCALE_OUT, UPLOAD, Ground.PAST_KNEE)), up.advice());
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
    DoubleFunction<Observation> at = busy -> kernel(8).throughput(10 * GBPS, 0).coreBusy(cores(8, busy)).build();
    // Alternating just above and just below the enter threshold never enters: the streak keeps resetting.
    List<Verdict> entering = new ArrayList<>();
    for (double b : new double[] {0.91, 0.89, 0.92, 0.88, 0.91, 0.89, 0.93, 0.87}) {
      entering.add(judge(c, at.apply(b)).of(DOWNLOAD).verdict());
    }
    assertFalse(entering.contains(Verdict.CPU_BOUND), entering.toString());
    // Once in, dipping between exit (0.80) and enter (0.90) keeps it in.
    feed(c, at.apply(0.95), 3);
    List<Verdict> holding = new ArrayList<>();
    for (double b : new double[] {0.89, 0.85, 0.91, 0.82, 0.88, 0.84, 0.90, 0.81}) {
      holding.add(judge(c, at.apply(b)).of(DOWNLOAD).verdict());
    }
    assertEquals(List.of(Verdict.CPU_BOUND), holding.stream().distinct().toList(), holding.toString());
    // Two samples below exit are a blip; the third in a row releases it.
    assertEquals(Verdict.CPU_BOUND, judge(c, at.apply(0.5)).of(DOWNLOAD).verdict());
    assertEquals(Verdict.CPU_BOUND, judge(c, at.apply(0.5)).of(DOWNLOAD).verdict());
    assertEquals(Verdict.CPU_BOUND, judge(c, at.apply(0.95)).of(DOWNLOAD).verdict());
    assertEquals(Verdict.CPU_BOUND, judge(c, at.apply(0.5)).of(DOWNLOAD).verdict());
    assertEquals(Verdict.CPU_BOUND, judge(c, at.apply(0.5)).of(DOWNLOAD).verdict());
    assertEquals(Verdict.HEADROOM, judge(c, at.apply(0.5)).of(DOWNLOAD).verdict());
  }

  @Test
  void linkUtilizationHoveringAroundTheThresholdDoesNotFlap() {
    Classifier c = classifier();
    DoubleFunction<Observation> at = u -> kernel(16).lineRate(bytesPerSecond(10)).throughput(8 * GBPS, 0)
        .underlayUtilization(u, 0.01).coreBusy(cores(16, 0.3)).build();
    feed(c, at.apply(0.95), 3);
    List<Verdict> seen = new ArrayList<>();
    for (double u : new double[] {0.89, 0.91, 0.81, 0.92, 0.85, 0.95, 0.80, 0.88}) {
      seen.add(judge(c, at.apply(u)).of(DOWNLOAD).verdict());
    }
    assertEquals(List.of(Verdict.LINK_BOUND), seen.stream().distinct().toList(), seen.toString());
    feed(c, at.apply(0.5), 3);
    assertEquals(Verdict.HEADROOM, judge(c, at.apply(0.89)).of(DOWNLOAD).verdict(), "0.89 is below enter");
  }

  @Test
  void linkBoundWithCpuToSpareAdvisesABiggerInterfaceSizedByTheReference() {
    Observation o = kernel(16).lineRate(bytesPerSecond(10)).throughput(9.3 * GBPS, 0.2 * GBPS)
        .underlayUtilization(0.97, 0.30).coreBusy(cores(16, 0.35)).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Verdict.LINK_BOUND, j.of(DOWNLOAD).verdict());
    assertEquals(Verdict.HEADROOM, j.of(UPLOAD).verdict(), "upload reads the receive side, which has room");
    assertEquals(List.of(new AdviceItem(Advice.BIGGER_INTERFACE, DOWNLOAD, Ground.LINK_FULL_CPU_ROOM)), j.advice());
    assertEquals(Cause.LINK_FULL, j.of(DOWNLOAD).cause());
    assertEquals(CeilingSource.REFERENCE, j.of(DOWNLOAD).ceiling().source());
    assertTrue(j.of(DOWNLOAD).ceiling().linkCapped());
    assertTrue(Explainer.basis(j.of(DOWNLOAD).ceiling()).endsWith("capped by 10 Gbps NIC"));
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
    assertEquals(List.of(new AdviceItem(Advice.SCALE_OUT, DOWNLOAD, Ground.LARGEST_NIC)), j.advice());

    Observation both = kernel(2).lineRate(bytesPerSecond(2.5)).throughput(2.3 * GBPS, 0)
        .underlayUtilization(0.96, 0.01).coreBusy(cores(2, 0.97)).build();
    Judgement k = feed(classifier(), both, 3);
    assertEquals(Verdict.LINK_BOUND, k.of(DOWNLOAD).verdict(), "the link is named first when both are full");
    assertEquals(List.of(new AdviceItem(Advice.SCALE_OUT, DOWNLOAD, Ground.LINK_AND_CPU_FULL)), k.advice());
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
    assertEquals(Cause.CORES_SATURATED, j.of(DOWNLOAD).cause());
    assertEquals(4.0, j.usableCores(), 1e-9);
    // Kernel first, then another peer: userspace does not grow with cores.
    assertEquals(List.of(new AdviceItem(Advice.ENABLE_KERNEL_WIREGUARD, DOWNLOAD, Ground.USERSPACE_BOUND),
        new AdviceItem(Advice.SCALE_OUT, DOWNLOAD, Ground.USERSPACE_BOUND)), j.advice());
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
  void userspaceAtItsPlateauWithIdleCoresIsBoundAtTheCeilingAndNearItAdvisesKernelWireguard() {
    double[] busy = cores(8, 0.1);
    busy[0] = 0.7;
    busy[1] = 0.7;
    Observation at = Observation.builder(Datapath.USERSPACE, 8).throughput(6.3 * GBPS, 0.1 * GBPS)
        .coreBusy(busy).datapathCpuCores(2.5).build();
    Judgement j = feed(classifier(), at, 3);
    assertEquals(Verdict.CPU_BOUND, j.of(DOWNLOAD).verdict(), "6.3 of 6.8 Gbps is the plateau, idle cores or not");
    assertEquals(Cause.AT_CEILING, j.of(DOWNLOAD).cause());
    assertEquals(EnumSet.of(Advice.ENABLE_KERNEL_WIREGUARD, Advice.SCALE_OUT), j.adviceSet());

    Observation near = Observation.builder(Datapath.USERSPACE, 8).throughput(5.8 * GBPS, 0.1 * GBPS)
        .coreBusy(busy).datapathCpuCores(2.5).build();
    Judgement n = feed(classifier(), near, 3);
    assertEquals(Verdict.HEADROOM, n.of(DOWNLOAD).verdict());
    assertEquals(List.of(new AdviceItem(Advice.ENABLE_KERNEL_WIREGUARD, null, Ground.USERSPACE_NEAR_PLATEAU)),
        n.advice());

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
    assertEquals(List.of(new AdviceItem(Advice.NONE, null, Ground.ONE_TUNNEL)), j.advice());
    assertEquals(Cause.ONE_TUNNEL_CORE, j.of(DOWNLOAD).cause());
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
  }

  @Test
  void aJumboPathWithAStandardTunnelMtuAdvisesRaisingItWhenBoundButAJumboUnderlayAloneDoesNot() {
    Observation.Builder b = kernel(8).underlayMtu(9001).throughput(12 * GBPS, 0).coreBusy(cores(8, 0.96));
    assertEquals(EnumSet.of(Advice.SCALE_UP), feed(classifier(), b.build(), 3).adviceSet(),
        "a 9001 underlay serving users across the internet: keep the default MTU");
    Judgement j = feed(classifier(), b.jumboPath(true).build(), 3);
    assertEquals(List.of(new AdviceItem(Advice.SCALE_UP, DOWNLOAD, Ground.BELOW_KNEE),
        new AdviceItem(Advice.RAISE_MTU, null, Ground.JUMBO_PATH)), j.advice());
    assertEquals(EnumSet.of(Advice.SCALE_UP, Advice.RAISE_MTU),
        feed(classifier(), b.tunnelMtu(1420).build(), 3).adviceSet(), "1420 is not jumbo either");
    assertEquals(EnumSet.of(Advice.SCALE_UP), feed(classifier(), b.tunnelMtu(8000).build(), 3).adviceSet());
    Observation idle = kernel(8).underlayMtu(9001).jumboPath(true).throughput(GBPS, 0).coreBusy(cores(8, 0.1)).build();
    assertEquals(Set.of(Advice.NONE), feed(classifier(), idle, 3).adviceSet(), "not bound: nothing to raise");
  }

  @Test
  void aBusyCpuWithoutTunnelTrafficIsNotJudgedBound() {
    Observation stress = kernel(8).throughput(1000, 200).coreBusy(cores(8, 1.0)).build();
    Judgement j = feed(classifier(), stress, 5);
    assertEquals(Verdict.HEADROOM, j.of(DOWNLOAD).verdict());
    assertEquals(Verdict.HEADROOM, j.of(UPLOAD).verdict());
    assertEquals(Cause.IDLE, j.of(DOWNLOAD).cause());
    assertEquals(Set.of(Advice.NONE), j.adviceSet());
  }

  @Test
  void anAbsentDatapathIsNeverBoundNorHeadroom() {
    Observation o = Observation.builder(Datapath.ABSENT, 4).coreBusy(cores(4, 1.0)).underlayUtilization(1, 1).build();
    Judgement j = feed(classifier(), o, 5);
    for (var d : dev.headroom.sample.Direction.values()) {
      assertEquals(Verdict.NO_DATAPATH, j.of(d).verdict());
      assertEquals(Cause.NO_DATAPATH, j.of(d).cause());
      assertFalse(j.of(d).verdict().bound());
      assertTrue(Double.isNaN(j.of(d).spare().bytesPerSecond()), "nothing measured: no spare claimed");
    }
    assertEquals(List.of(new AdviceItem(Advice.NONE, null, Ground.NO_DATAPATH)), j.advice());
  }

  @Test
  void withHeadroomTheAdviceIsNoneAndSaysHowFar() {
    Observation o = kernel(16).throughput(2 * GBPS, 0.75 * GBPS).coreBusy(cores(16, 0.2)).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Verdict.HEADROOM, j.of(DOWNLOAD).verdict());
    assertEquals(List.of(new AdviceItem(Advice.NONE, null, Ground.ROOM)), j.advice());
    assertEquals(Cause.ROOM, j.of(DOWNLOAD).cause());
  }

  @Test
  void aMatchingProfileSetsTheCeilingAndCanBeReplaced() {
    MeasuredProfile p = MeasuredProfiles.withoutPacketSizes(OptionalDouble.of(4 * GBPS), Cause.CORES_SATURATED, OptionalDouble.of(2 * GBPS),
        Cause.CORES_SATURATED, 16, Datapath.KERNEL, 1280, Instant.EPOCH);
    Classifier c = classifier();
    Observation o = kernel(16).throughput(2 * GBPS, GBPS).coreBusy(cores(16, 0.2)).build();
    Judgement j = judge(c, o, p, ConfigCeilings.NONE);
    assertEquals(CeilingSource.PROFILE, j.of(DOWNLOAD).ceiling().source());
    assertEquals(0.5, j.of(DOWNLOAD).utilization(), 1e-9);
    assertEquals(CeilingSource.REFERENCE, judge(c, o).of(DOWNLOAD).ceiling().source());
  }

  @Test
  void cpuSaturationFlagMovesTheThresholds() {
    Classifier c = new Classifier(Thresholds.defaults().withCpuSaturation(0.75));
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
    assertEquals(0.3, o.totalBusyCores(), 1e-9);
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
  @Test
  void kernelUploadHoldingItsCeilingOnThirtyTwoCoresWithMostIdleIsBoundAtTheKneeAndShouldScaleOut() {
    double[] busy = cores(32, 0.04);
    for (int i = 0; i < 8; i++) {
      busy[i] = 0.97;
    }
    Observation o = kernel(32).throughput(0.4 * GBPS, 14.5 * GBPS).coreBusy(busy).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Verdict.CPU_BOUND, j.of(UPLOAD).verdict(), "14.5 of 15 Gbps with 24 cores idle is still full");
    assertEquals(Cause.AT_CEILING, j.of(UPLOAD).cause());
    assertEquals(Verdict.HEADROOM, j.of(DOWNLOAD).verdict());
    assertEquals(List.of(new AdviceItem(Advice.SCALE_OUT, UPLOAD, Ground.PAST_KNEE)), j.advice());
    assertEquals(ReferenceProfile.tableGbps(Datapath.KERNEL, 32, UPLOAD), j.of(UPLOAD).ceiling().gbps(), 1e-9);
    assertEquals(14.5 / 15, j.of(UPLOAD).utilization(), 1e-9);
  }

  @Test
  void belowTheKneeAtTheCeilingWithIdleCoresAdvisesMoreCores() {
    double[] busy = cores(8, 0.3);
    Observation o = kernel(8).throughput(0.2 * GBPS, 10.5 * GBPS).coreBusy(busy).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Cause.AT_CEILING, j.of(UPLOAD).cause());
    assertEquals(List.of(new AdviceItem(Advice.SCALE_UP, UPLOAD, Ground.BELOW_KNEE)), j.advice());
  }

  @Test
  void aNicCappedCeilingHeldIsTheLinksVerdictNotTheCpus() {
    Observation o = kernel(16).lineRate(bytesPerSecond(10)).throughput(9.2 * GBPS, 0.1 * GBPS)
        .underlayUtilization(0.97, 0.02).coreBusy(cores(16, 0.3)).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Cause.LINK_FULL, j.of(DOWNLOAD).cause());
    assertEquals(Set.of(Advice.BIGGER_INTERFACE), j.adviceSet());
  }

  private record Source(MeasuredProfile profile, ConfigCeilings config) {}

  @Test
  void atNinetyFivePercentOfAnyCeilingSourceTheAdviceIsNeverNone() {
    MeasuredProfile cpuProfile = MeasuredProfiles.withoutPacketSizes(OptionalDouble.of(4 * GBPS), Cause.CORES_SATURATED,
        OptionalDouble.of(4 * GBPS), Cause.CORES_SATURATED, 16, Datapath.KERNEL, 1280, Instant.EPOCH);
    ConfigCeilings configured = new ConfigCeilings(OptionalDouble.of(4 * GBPS), OptionalDouble.of(4 * GBPS));
    for (Datapath dp : new Datapath[] {Datapath.KERNEL, Datapath.USERSPACE}) {
      for (int n : new int[] {2, 4, 16, 32, 64}) {
        MeasuredProfile matching = dp == Datapath.KERNEL && n == 16 ? cpuProfile : null;
        for (Source src : new Source[] {new Source(null, ConfigCeilings.NONE), new Source(null, configured),
            new Source(matching, ConfigCeilings.NONE)}) {
          MeasuredProfile p = src.profile();
          ConfigCeilings cfg = src.config();
          Classifier c = classifier();
          Observation probe = Observation.builder(dp, n).coreBusy(cores(n, 0.2)).build();
          for (var d : dev.headroom.sample.Direction.values()) {
            double ceiling = judge(c, probe, p, cfg).of(d).ceiling().bytesPerSecond();
            Observation.Builder b = Observation.builder(dp, n).coreBusy(cores(n, 0.2)).datapathCpuCores(1);
            b = d == DOWNLOAD ? b.throughput(0.95 * ceiling, 0.01 * ceiling) : b.throughput(0.01 * ceiling, 0.95 * ceiling);
            Judgement j = feed(c, b.build(), 3, p, cfg);
            assertTrue(j.of(d).verdict().bound(), dp + " " + n + " cores " + d + ": " + j.of(d));
            assertFalse(j.adviceSet().contains(Advice.NONE), dp + " " + n + " cores " + d + ": " + j.advice());
          }
        }
      }
    }
  }

  @Test
  void theHeavyDownloadersAcksNeverMakeUploadSingleTunnelBound() {
    double[] busy = cores(32, 0.02);
    busy[7] = 0.99;
    Observation o = kernel(32).throughput(3 * GBPS, 0.08 * GBPS).hottestTunnel(2.9 * GBPS, 0.078 * GBPS)
        .coreBusy(busy).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Cause.ONE_TUNNEL_CORE, j.of(DOWNLOAD).cause());
    assertEquals(Cause.ROOM, j.of(UPLOAD).cause(), "upload's busiest tunnel carries only ACKs of the download");
  }

  @Test
  void aTunnelAtTheCloudsSingleFlowCapIsSingleTunnelBoundWithThatCause() {
    Observation o = kernel(32).flowCap(bytesPerSecond(5)).throughput(9 * GBPS, 0.3 * GBPS)
        .hottestTunnel(4.8 * GBPS, 0.1 * GBPS).coreBusy(cores(32, 0.2)).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(Cause.FLOW_CAP, j.of(DOWNLOAD).cause());
    assertEquals(Verdict.SINGLE_TUNNEL_BOUND, j.of(DOWNLOAD).verdict());
    assertEquals(Cause.ROOM, j.of(UPLOAD).cause());
    assertEquals(List.of(new AdviceItem(Advice.NONE, null, Ground.ONE_TUNNEL)), j.advice());
  }

  @Test
  void aRelayedTunnelHeldFlatWhileThePeerHasRoomIsRelayHeldWithAdviceForADirectPath() {
    Classifier c = classifier();
    // One client on NetBird's relay carries most of download, flat at ~95 Mbit/s; the 8-core peer idles.
    Judgement j = null;
    for (int i = 0; i < Thresholds.RELAY_FLAT_SAMPLES + 3; i++) {
      double level = (i % 2 == 0 ? 0.095 : 0.092) * GBPS;
      j = judge(c, kernel(8).throughput(level + 0.01 * GBPS, 0.004 * GBPS).hottestTunnel(level, 0.002 * GBPS)
          .hottestRelayed(true, true).coreBusy(cores(8, 0.05)).build());
    }
    assertEquals(Cause.RELAY_HELD, j.of(DOWNLOAD).cause());
    assertEquals(Verdict.SINGLE_TUNNEL_BOUND, j.of(DOWNLOAD).verdict());
    assertEquals(List.of(new AdviceItem(Advice.DIRECT_PATH, DOWNLOAD, Ground.RELAYED_TUNNEL)), j.advice());
  }

  @Test
  void aRelayedTunnelThatWandersOrAFlatP2pTunnelIsNotRelayHeld() {
    Classifier wandering = classifier();
    Classifier direct = classifier();
    Judgement w = null;
    Judgement p = null;
    for (int i = 0; i < 3 * Thresholds.RELAY_FLAT_SAMPLES; i++) {
      // Demand-bound: the relayed level wanders by half; the P2P one holds flat.
      double level = (0.06 + 0.04 * Math.sin(i / 2.0)) * GBPS;
      w = judge(wandering, kernel(8).throughput(level + 0.01 * GBPS, 0.004 * GBPS).hottestTunnel(level, 0.002 * GBPS)
          .hottestRelayed(true, false).coreBusy(cores(8, 0.05)).build());
      p = judge(direct, kernel(8).throughput(0.1 * GBPS, 0.004 * GBPS).hottestTunnel(0.095 * GBPS, 0.002 * GBPS)
          .hottestRelayed(false, false).coreBusy(cores(8, 0.05)).build());
    }
    assertEquals(Cause.ROOM, w.of(DOWNLOAD).cause());
    assertEquals(Cause.ROOM, p.of(DOWNLOAD).cause());
  }

  @Test
  void aP2pTunnelAtOneCoresLimitStaysOneTunnelCoreWhileARelayedOneIsNamedByItsRelay() {
    Classifier c = classifier();
    Judgement j = null;
    double[] busy = cores(8, 0.05);
    busy[0] = 0.97;
    for (int i = 0; i < Thresholds.RELAY_FLAT_SAMPLES + 3; i++) {
      j = judge(c, kernel(8).throughput(1.5 * GBPS, 0.03 * GBPS).hottestTunnel(1.45 * GBPS, 0.02 * GBPS)
          .datapathCpuCores(1.0).hottestRelayed(false, false).coreBusy(busy).build());
    }
    assertEquals(Cause.ONE_TUNNEL_CORE, j.of(DOWNLOAD).cause());
  }

  @Test
  void aCpuQuotaIsTheCoresTheCpuSaturatesAt() {
    // 2.5 cores' quota on 8 online: 2.4 busy cores is saturation though the mean over 8 is 30 %.
    Observation o = kernel(8).cpuQuotaCores(2.5).throughput(2.5 * GBPS, 0.1 * GBPS).coreBusy(cores(8, 0.3)).build();
    Judgement j = feed(classifier(), o, 3);
    assertEquals(2.5, j.usableCores(), 1e-9);
    assertEquals(Cause.CORES_SATURATED, j.of(DOWNLOAD).cause());
    assertEquals(List.of(new AdviceItem(Advice.SCALE_UP, DOWNLOAD, Ground.BELOW_KNEE)), j.advice());
  }

  @Test
  void anUnknownRateHoldsTheLastVerdictInsteadOfReadingIdle() {
    Classifier c = classifier();
    Observation busy = kernel(8).throughput(12 * GBPS, 0).coreBusy(cores(8, 0.96)).build();
    Observation unknown = kernel(8).throughput(Double.NaN, Double.NaN).coreBusy(cores(8, 0.96)).build();
    Judgement first = judge(c, unknown);
    assertEquals(Cause.RATE_UNKNOWN, first.of(DOWNLOAD).cause(), "nothing measured yet: not idle, unknown");
    assertTrue(Double.isNaN(first.of(DOWNLOAD).utilization()));
    assertTrue(Explainer.reason(first, DOWNLOAD).contains("rate unknown"), Explainer.reason(first, DOWNLOAD));

    feed(c, busy, 3);
    for (int i = 0; i < 10; i++) {
      Judgement j = judge(c, unknown);
      assertEquals(Verdict.CPU_BOUND, j.of(DOWNLOAD).verdict(), "an unreadable counter is not an idle tunnel");
      assertEquals(Cause.CORES_SATURATED, j.of(DOWNLOAD).cause());
      assertTrue(Double.isNaN(j.of(DOWNLOAD).utilization()));
      assertEquals(List.of(new AdviceItem(Advice.SCALE_UP, DOWNLOAD, Ground.BELOW_KNEE)), j.advice());
    }
    Judgement held = judge(c, unknown);
    assertTrue(Explainer.reason(held, DOWNLOAD).contains("the last verdict"));
    for (AdviceItem a : held.advice()) {
      assertFalse(Explainer.advice(held, a).contains("NaN"), Explainer.advice(held, a));
    }
    Judgement idleUnknown = judge(classifier(), kernel(8).throughput(Double.NaN, Double.NaN).build());
    for (AdviceItem a : idleUnknown.advice()) {
      String words = Explainer.advice(idleUnknown, a);
      assertFalse(words.contains("NaN") || words.contains("0%"), "an unknown utilization is not 0 %: " + words);
    }
    // Unknown samples moved no state: one idle sample does not end the debounced verdict.
    Observation idle = kernel(8).throughput(0, 0).coreBusy(cores(8, 0.05)).build();
    assertEquals(Verdict.CPU_BOUND, judge(c, idle).of(DOWNLOAD).verdict());
  }
}
