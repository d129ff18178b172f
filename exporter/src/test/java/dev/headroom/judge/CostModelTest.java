package dev.headroom.judge;

import static dev.headroom.sample.Direction.DOWNLOAD;
import static dev.headroom.sample.Direction.UPLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.Datapath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CostModelTest {
  private static final double G = 1e9 / 8;
  private static final double FLOOR = Thresholds.defaults().trafficFloorBytesPerSecond();

  /**
   * A 4-core kernel peer carrying these Gbps in packets of these sizes, its cores busy for {@code cpu} cores in all,
   * all of it the datapath's.
   */
  private static Observation peer(double down, double up, int downPacket, int upPacket, double cpu) {
    double each = cpu / 4;
    return Observation.builder(Datapath.KERNEL, 4).coreBusy(each, each, each, each).datapathCpuCores(cpu)
        .throughput(down * G, up * G).packets(down * G / downPacket, up * G / upPacket).build();
  }

  /** Feeds one sample a second from {@code second} on; returns the second after the last. */
  private static long feed(CostModel m, int seconds, long second, Observation o) {
    for (int i = 0; i < seconds; i++) {
      m.feed(o, FLOOR, (second + i) * 1_000_000_000L);
    }
    return second + seconds;
  }

  @Test
  void aSteadyDownloadTeachesItsCostAndTheCeilingIsItSpreadAsTheReferenceSpreads() {
    CostModel m = new CostModel(Duration.ofMinutes(1), null);
    // 2 Gbps of 1280-byte packets and their ACKs on one of four cores: the reference's one core. Four of its
    // cores carried 7 Gbps, not 8: 3.5 first cores' worth.
    Observation o = peer(2, 0.05, 1280, 64, 1.0);
    feed(m, 61, 0, o);
    CostModel.Estimate e = m.estimate(o);
    assertTrue(e.usable(), e.toString());
    assertEquals(1.0 / (2 * G / 1280), e.cost(DOWNLOAD), 1e-12, "a core per 2 Gbps of packets");
    assertEquals(7 * G, CostModel.ceiling(e, o, DOWNLOAD), 1e-6 * G);
    assertEquals(1.0, CostModel.speed(e, Datapath.KERNEL, DOWNLOAD), 1e-9, "the reference's own speed");
    assertFalse(e.apart(), "the ACKs move with the download: nothing tells the costs apart");
    assertEquals(e.referenceRatio(), e.ratio(), 1e-12);
    assertEquals(0, e.fitError(), 1e-6, "every sample on the fit");
    assertEquals(2 * G, e.meanRate().get(DOWNLOAD), 1e-6 * G, "the load it was learned at");
  }

  @Test
  void shortOfItsLoadedTimeItIsStillLearningAndGivesNoCeiling() {
    CostModel m = new CostModel(Duration.ofMinutes(1), null);
    Observation o = peer(2, 0.05, 1280, 64, 1.0);
    feed(m, 30, 0, o);
    // Idle seconds are no evidence of a cost: they do not bring it nearer.
    feed(m, 60, 30, peer(0, 0, 1280, 64, 0.01));
    CostModel.Estimate e = m.estimate(o);
    assertEquals(CostModel.Shortfall.LEARNING, e.shortfall());
    assertEquals(30, e.seconds(), 1e-9);
    assertTrue(Double.isNaN(CostModel.ceiling(e, o, DOWNLOAD)));
  }

  @Test
  void aMixThatVariesTellsDecryptFromEncryptCost() {
    CostModel m = new CostModel(Duration.ofMinutes(1), null);
    double perDown = 1e-6;
    double perUp = 2.2e-6;
    long t = 0;
    for (int phase = 0; phase < 8; phase++) {
      double down = phase % 2 == 0 ? 3 : 1;
      double up = phase % 2 == 0 ? 0.5 : 1.5;
      double cpu = perDown * down * G / 1280 + perUp * up * G / 1280;
      t = feed(m, 10, t, peer(down, up, 1280, 1280, cpu));
    }
    CostModel.Estimate e = m.estimate(peer(1, 1, 1280, 1280, 1));
    assertTrue(e.usable() && e.apart(), e.toString());
    assertEquals(perDown, e.cost(DOWNLOAD), 1e-9);
    assertEquals(perUp, e.cost(UPLOAD), 1e-9);
    assertEquals(2.2, e.ratio(), 1e-6);
  }

  @Test
  void aFixedMixSplitsTheCostByTheReferencesRatio() {
    CostModel m = new CostModel(Duration.ofMinutes(1), null);
    Observation o = peer(2, 1, 1280, 1280, 1.0);
    feed(m, 70, 0, o);
    CostModel.Estimate e = m.estimate(o);
    assertTrue(e.usable() && !e.apart(), e.toString());
    // The reference's one core: 2 Gbps download, 2 upload: a unit of upload costs what one of download does. How
    // each spreads over four cores (7 and 4 Gbps) is the shape's, not the cost's.
    assertEquals(1.0, e.referenceRatio(), 1e-9);
    assertEquals(e.referenceRatio(), e.ratio(), 1e-9);
    // Both directions together cost the core they used.
    double units = 2 * G / 1280 + 1 * G / 1280 * e.referenceRatio();
    assertEquals(1.0, e.cost(DOWNLOAD) * units, 1e-9);
  }

  @Test
  void aCpuThatScattersAroundAnyCostIsNotTrusted() {
    CostModel m = new CostModel(Duration.ofMinutes(1), null);
    // Every second loaded (the datapath never under 0.1 core), the CPU far above and below any one cost.
    for (int i = 0; i < 61; i++) {
      m.feed(peer(2, 0.05, 1280, 64, i % 2 == 0 ? 0.15 : 1.85), FLOOR, i * 1_000_000_000L);
    }
    CostModel.Estimate e = m.estimate(peer(2, 0.05, 1280, 64, 1));
    assertEquals(CostModel.Shortfall.SCATTERED, e.shortfall(), e.toString());
    assertTrue(e.fitError() > CostModel.MAX_FIT_ERROR);
  }

  @Test
  void theDatapathsCpuAtIdleIsFixedOverheadNotCost() {
    CostModel m = new CostModel(Duration.ofMinutes(1), null);
    long t = feed(m, 200, 0, peer(0, 0, 1280, 64, 0.1));
    feed(m, 70, t, peer(2, 0.05, 1280, 64, 1.1));
    CostModel.Estimate e = m.estimate(peer(2, 0.05, 1280, 64, 1.1));
    assertEquals(0.1, e.fixedCores(), 1e-3);
    assertEquals(1.0 / (2 * G / 1280), e.cost(DOWNLOAD), 0.01 / (2 * G / 1280));
    // The timers keep their tenth of a core at any load, on the half core the reference's shape leaves idle at 4.
    assertEquals(3.5 / e.cost(DOWNLOAD) * 1280, CostModel.ceiling(e, peer(2, 0.05, 1280, 64, 1.1), DOWNLOAD),
        1e-6 * G);
  }

  @Test
  void otherServicesThatLeaveTooFewIdleCoresLowerTheCeilingByWhatTheyKeep() {
    CostModel m = new CostModel(Duration.ofMinutes(1), null);
    // A core and a half of other work at idle: 2.5 cores are left, fewer than the 3.5 the datapath would use.
    long t = feed(m, 200, 0, peer(0, 0, 1280, 64, 1.5));
    feed(m, 70, t, peer(2, 0.05, 1280, 64, 2.5));
    CostModel.Estimate e = m.estimate(peer(2, 0.05, 1280, 64, 2.5));
    assertEquals(1.5, e.fixedCores(), 1e-3);
    assertEquals((4 - e.fixedCores()) / e.cost(DOWNLOAD) * 1280, CostModel.ceiling(e, peer(2, 0.05, 1280, 64, 2.5),
        DOWNLOAD), 1e-6 * G);
  }

  @Test
  void smallPacketsLowerTheByteCeilingTheSameCostGives() {
    CostModel m = new CostModel(Duration.ofMinutes(1), null);
    Observation bulk = peer(2, 0.05, 1280, 64, 1.0);
    feed(m, 61, 0, bulk);
    CostModel.Estimate e = m.estimate(bulk);
    Observation small = peer(0.4, 0.01, 200, 64, 1.0);
    double ratio = CostModel.ceiling(e, small, DOWNLOAD) / CostModel.ceiling(e, bulk, DOWNLOAD);
    assertEquals(PacketSize.scale(Datapath.KERNEL, DOWNLOAD, 1280, 200), ratio, 1e-9);
    assertTrue(ratio < 0.25, "a quarter of the bytes or less at 200-byte packets: " + ratio);
  }

  @Test
  void otherWorkOnTheCoresCountsAsWhatTheTrafficCostsWhenItMovesWithIt() {
    // A kernel peer whose forwarding and the underlay's softirq cost as much again as WireGuard's threads: the
    // cores run out at the busy CPU's cost, not the threads'.
    CostModel m = new CostModel(Duration.ofMinutes(1), null);
    long t = 0;
    for (double gbps : new double[] {1, 2, 1.5, 2.5}) {
      double threads = gbps / 4;
      Observation o = Observation.builder(Datapath.KERNEL, 4).coreBusy(threads / 2, threads / 2, threads / 2,
          threads / 2).datapathCpuCores(threads).throughput(gbps * G, 0.02 * gbps * G)
          .packets(gbps * G / 1280, 0.02 * gbps * G / 64).build();
      t = feed(m, 20, t, o);
    }
    Observation now = Observation.builder(Datapath.KERNEL, 4).coreBusy(0.25, 0.25, 0.25, 0.25).datapathCpuCores(0.5)
        .throughput(2 * G, 0.04 * G).packets(2 * G / 1280, 0.04 * G / 64).build();
    CostModel.Estimate e = m.estimate(now);
    assertTrue(e.usable(), e.toString());
    assertEquals(7 * G, CostModel.ceiling(e, now, DOWNLOAD), 0.01 * 7 * G,
        "a core per 2 Gbps, spread over 4 cores as the reference's: 3.5 cores' worth");
  }

  @Test
  void theStateFileKeepsTheCostsSums(@TempDir Path dir) throws Exception {
    CostModel m = new CostModel(Duration.ofMinutes(1), null);
    Observation o = peer(2, 0.05, 1280, 64, 1.0);
    feed(m, 61, 0, o);
    PeerShape shape = new PeerShape(Datapath.KERNEL, 4, 1280, "cpu");
    Path file = dir.resolve(StateFile.NAME);
    StateFile.write(file, new StateFile.Contents(shape, Map.of(), m.sums()));
    StateFile.Contents back = StateFile.read(file).orElseThrow();
    assertEquals(m.sums(), back.cost());
    CostModel restored = new CostModel(Duration.ofMinutes(1), back.cost());
    assertEquals(m.estimate(o), restored.estimate(o));
    // A file from before costs were kept reads as nothing learned.
    Files.writeString(file, Files.readString(file).replaceAll(",\"cost\":\\{[^}]*\\}", ""));
    assertEquals(CostModel.Sums.EMPTY, StateFile.read(file).orElseThrow().cost());
  }

  @Test
  void thePerPacketShareComesFromTheReferencesOwnJumboMeasurement() {
    assertEquals(0.79, PacketSize.perPacketShare(Datapath.KERNEL, DOWNLOAD), 0.01);
    assertEquals(0.90, PacketSize.perPacketShare(Datapath.KERNEL, UPLOAD), 0.01);
    assertEquals(0.70, PacketSize.perPacketShare(Datapath.USERSPACE, DOWNLOAD), 0.01);
    for (Datapath dp : new Datapath[] {Datapath.KERNEL, Datapath.USERSPACE}) {
      for (var d : new dev.headroom.sample.Direction[] {DOWNLOAD, UPLOAD}) {
        assertEquals(ReferenceProfile.jumboFactor(dp, ReferenceProfile.JUMBO_MTU, d),
            PacketSize.scale(dp, d, ReferenceProfile.BASE_MTU, ReferenceProfile.JUMBO_MTU), 1e-9,
            "8920-byte packets carry what the guide measured at that MTU");
      }
    }
  }
}
