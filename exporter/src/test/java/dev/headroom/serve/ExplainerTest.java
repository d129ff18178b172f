package dev.headroom.serve;

import static dev.headroom.sample.Direction.DOWNLOAD;
import static dev.headroom.sample.Direction.UPLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.judge.Advice;
import dev.headroom.judge.AdviceItem;
import dev.headroom.judge.CeilingSelector;
import dev.headroom.judge.Classifier;
import dev.headroom.judge.ConfigCeilings;
import dev.headroom.judge.CostModel;
import dev.headroom.judge.Judgement;
import dev.headroom.judge.Observation;
import dev.headroom.judge.PacketSize;
import dev.headroom.judge.ThisCpu;
import dev.headroom.judge.ReferenceProfile;
import dev.headroom.judge.Thresholds;
import dev.headroom.judge.Units;
import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The words quote the judgement's facts and the reference profile's figures; they decide nothing. */
class ExplainerTest {
  private static final double GBPS = Units.BYTES_PER_GBPS;

  private static Judgement judge(Observation o) {
    return judge(o, CostModel.Estimate.NONE);
  }

  private static Judgement judge(Observation o, CostModel.Estimate cost) {
    Classifier c = new Classifier(Thresholds.defaults());
    Judgement j = null;
    for (int i = 0; i < 3; i++) {
      j = c.observe(o, CeilingSelector.selectBoth(o, null, ConfigCeilings.NONE, Map.of(), cost));
    }
    return j;
  }

  /** A cost learned on {@code dp} by a CPU {@code speed} times as fast as the reference's, per 1280-byte packet. */
  private static CostModel.Estimate learned(Datapath dp, double speed) {
    Map<Direction, Double> cost = new EnumMap<>(Direction.class);
    for (Direction d : Direction.values()) {
      cost.put(d, ReferenceProfile.BASE_MTU / PacketSize.units(dp, d, ReferenceProfile.BASE_MTU)
          / (speed * ReferenceProfile.perCoreBytes(dp, d)));
    }
    return new CostModel.Estimate(CostModel.Shortfall.NONE, cost, true, 1, 0, 180, 60, 0.04, 1, Map.of());
  }

  /** The advice's reason for the first item of {@code advice}. */
  private static String adviceFor(Judgement j, Advice advice) {
    return Explainer.advice(j, j.advice().stream().filter(a -> a.advice() == advice).findFirst().orElseThrow());
  }

  @Test
  void scaleUpNamesTheNextSizeOfThisCpuOnlyOnceTheCostIsLearned() {
    Observation o = Observation.builder(Datapath.KERNEL, 4).throughput(7 * GBPS, 0.3 * GBPS)
        .coreBusy(0.97, 0.97, 0.97, 0.97).build();
    String reference = adviceFor(judge(o), Advice.SCALE_UP);
    assertFalse(reference.contains("this CPU"), reference);
    // A CPU as fast as the reference's carries the table's 8-core 13 Gbps; one half as fast, half of it.
    assertEquals(reference + "; 8 vCPUs of this CPU: about 13 Gbps download",
        adviceFor(judge(o, learned(Datapath.KERNEL, 1)), Advice.SCALE_UP));
    assertEquals(reference + "; 8 vCPUs of this CPU: about 6.5 Gbps download",
        adviceFor(judge(o, learned(Datapath.KERNEL, 0.5)), Advice.SCALE_UP));
  }

  @Test
  void enableKernelWireguardNamesKernelAtThisPeersCoresOfThisCpu() {
    Observation o = Observation.builder(Datapath.USERSPACE, 2).throughput(1.5 * GBPS, 0).coreBusy(0.96, 0.94)
        .datapathCpuCores(1.85).build();
    String reference = adviceFor(judge(o), Advice.ENABLE_KERNEL_WIREGUARD);
    Judgement j = judge(o, learned(Datapath.USERSPACE, 1));
    double kernel = ThisCpu.of(learned(Datapath.USERSPACE, 1), o).row(Datapath.KERNEL, 2).bytesPerSecond().download();
    assertEquals(reference + "; 2 vCPUs of this CPU with kernel WireGuard: about " + Units.num(Units.gbps(kernel), 1)
        + " Gbps download", adviceFor(j, Advice.ENABLE_KERNEL_WIREGUARD));
    // Userspace's own next size up, for the scale_up beside it.
    assertTrue(adviceFor(j, Advice.SCALE_UP).endsWith("; 4 vCPUs of this CPU: about 6.4 Gbps download"),
        adviceFor(j, Advice.SCALE_UP));
  }

  @Test
  void scaleOutPastTheKneeSaysWhatOneMorePeerOfThisSizeAdds() {
    double[] busy = new double[32];
    Arrays.fill(busy, 0.97);
    Observation o = Observation.builder(Datapath.KERNEL, 32).throughput(24 * GBPS, 0.3 * GBPS).coreBusy(busy).build();
    String reference = adviceFor(judge(o), Advice.SCALE_OUT);
    assertEquals(reference + "; one more peer of 32 vCPUs of this CPU adds about 25 Gbps download",
        adviceFor(judge(o, learned(Datapath.KERNEL, 1)), Advice.SCALE_OUT));
  }

  @Test
  void thisCpuSaysItsSpeedPerDirectionAndTheEvidence() {
    Observation o = Observation.builder(Datapath.KERNEL, 4).throughput(1 * GBPS, 0.3 * GBPS).build();
    assertEquals("", Explainer.thisCpu(ThisCpu.of(CostModel.Estimate.NONE, o)));
    assertEquals("this CPU: 0.5x the reference (download), 0.5x (upload), from 3m00s of load (cost ±4%)",
        Explainer.thisCpu(ThisCpu.of(learned(Datapath.KERNEL, 0.5), o)));
  }

  @Test
  void theKneeReasonQuotesTheReferenceUploadFigures() {
    double[] busy = new double[32];
    Arrays.fill(busy, 0.04);
    Arrays.fill(busy, 0, 8, 0.97);
    Judgement j = judge(Observation.builder(Datapath.KERNEL, 32).throughput(0.4 * GBPS, 14.5 * GBPS).coreBusy(busy)
        .build());
    String reason = Explainer.reason(j, UPLOAD);
    String knee = Units.num(ReferenceProfile.tableGbps(Datapath.KERNEL, ReferenceProfile.KNEE_CORES, UPLOAD), 1);
    assertTrue(reason.contains(knee + " Gbps from " + ReferenceProfile.KNEE_CORES + " cores"), reason);
    assertTrue(reason.contains(Units.pct(j.of(UPLOAD).utilization())), reason);
    String advice = Explainer.advice(j, j.advice().get(0));
    assertTrue(advice.startsWith("upload "), advice);
    assertEquals("CPU-bound: at its ceiling", Explainer.headline(j.of(UPLOAD)));
  }

  @Test
  void everyCauseAndGroundHasWordsWithoutUnknownNumbers() {
    List<Observation> shapes = List.of(
        Observation.builder(Datapath.ABSENT, 4).build(),
        Observation.builder(Datapath.KERNEL, 8).throughput(1000, 0).coreBusy(new double[8]).build(),
        Observation.builder(Datapath.USERSPACE, 2).throughput(1.5 * GBPS, 0).coreBusy(0.96, 0.94)
            .datapathCpuCores(1.85).build(),
        Observation.builder(Datapath.KERNEL, 16).underlayMtu(9001).jumboPath(true).lineRate(Units.bytesPerSecond(10))
            .throughput(9.2 * GBPS, 9.2 * GBPS).underlayUtilization(0.97, 0.97).coreBusy(new double[16]).build());
    for (Observation o : shapes) {
      Judgement j = judge(o);
      for (Direction d : Direction.values()) {
        assertFalse(Explainer.reason(j, d).contains("NaN"), Explainer.reason(j, d));
      }
      for (AdviceItem a : j.advice()) {
        String words = Explainer.advice(j, a);
        assertFalse(words.isBlank() || words.contains("NaN"), a + ": " + words);
      }
    }
    for (Advice a : Advice.values()) {
      assertEquals(a == Advice.NONE, Explainer.adviceWords(a).isEmpty(), a.label());
    }
    assertTrue(Explainer.advice(judge(shapes.get(3)), judge(shapes.get(3)).advice().get(0))
        .startsWith("download and upload fill"), "merged link advice names both directions");
  }

  @Test
  void theSharedCpuReasonAndTheSpareQuoteTheObservationsNumbers() {
    Judgement j = judge(Observation.builder(Datapath.KERNEL, 4).throughput(6.6 * GBPS, 0.93 * GBPS)
        .coreBusy(0.95, 0.95, 0.95, 0.95).build());
    String reason = Explainer.reason(j, UPLOAD);
    assertTrue(reason.contains("0.93 Gbps") && reason.contains("6.6 Gbps") && reason.contains("3.8 of 4 cores"),
        reason);
    assertEquals("CPU-bound: the CPU is shared", Explainer.headline(j.of(UPLOAD)));
    assertTrue(Explainer.spare(j, UPLOAD).startsWith("no room for more upload"), Explainer.spare(j, UPLOAD));

    // Below the knee the directions share the cores: a third of the 8-core download and a quarter of its upload.
    Judgement room = judge(Observation.builder(Datapath.KERNEL, 8).throughput(13.0 / 3 * GBPS, 11.0 / 4 * GBPS)
        .coreBusy(new double[8]).build());
    double spare = room.of(DOWNLOAD).spare().bytesPerSecond();
    assertTrue(Explainer.spare(room, DOWNLOAD).contains("room for " + Units.gbpsText(spare) + " more download"),
        Explainer.spare(room, DOWNLOAD));
    assertTrue(Explainer.spare(room, DOWNLOAD).contains(Units.pct(room.of(DOWNLOAD).spare().load()) + " in use"),
        Explainer.spare(room, DOWNLOAD));

    // Where both ceilings at once leave cores idle (32 cores: 12.5 + 7.5 of them), decryption stops spreading: the
    // fractions do not add, and the spare names the direction's own ceiling instead of the shared CPU.
    Judgement wide = judge(Observation.builder(Datapath.KERNEL, 32)
        .throughput(25.0 / 3 * GBPS, 3.75 * GBPS).coreBusy(new double[32]).build());
    assertTrue(Explainer.spare(wide, DOWNLOAD).contains("(its own "
        + Units.gbpsText(wide.of(DOWNLOAD).ceiling().bytesPerSecond()) + " ceiling)"), Explainer.spare(wide, DOWNLOAD));
  }

  @Test
  void noTunnelDatapathHasItsOwnWordsAndNoSpare() {
    Judgement j = judge(Observation.builder(Datapath.ABSENT, 4).build());
    assertEquals("No tunnel datapath", Explainer.headline(j.of(DOWNLOAD)));
    assertEquals("spare download unknown", Explainer.spare(j, DOWNLOAD));
    assertFalse(Explainer.reason(j, UPLOAD).contains("%"), "no utilization is quoted for a missing tunnel");
  }
}
