package dev.headroom.judge;

import static dev.headroom.sample.Direction.DOWNLOAD;
import static dev.headroom.sample.Direction.UPLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.judge.SpareCapacity.Bound;
import dev.headroom.judge.SpareCapacity.Spare;
import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SpareCapacityTest {
  private static final double G = Units.BYTES_PER_GBPS;
  private static final double NONE = Double.NaN;

  private static double[] cores(int n, double busy) {
    double[] b = new double[n];
    Arrays.fill(b, busy);
    return b;
  }

  private static Map<Direction, Ceiling> ceilings(double downGbps, double upGbps) {
    return Map.of(DOWNLOAD, new Ceiling(downGbps * G, CeilingSource.CONFIG, false, new Ceiling.Config(DOWNLOAD), Optional.empty()),
        UPLOAD, new Ceiling(upGbps * G, CeilingSource.CONFIG, false, new Ceiling.Config(UPLOAD), Optional.empty()));
  }

  @Test
  void aThirdOfTheDownloadAndAQuarterOfTheUploadCeilingLeaveFiveTwelfthsOfEach() {
    // 16 cores, a third busy: the fractions (7/12) say more than the cores (1/3), so they count.
    Spare down = SpareCapacity.spare(20.0 / 3 * G, 3.75 * G, 20 * G, 15 * G, 1.0 / 3, NONE, true, NONE);
    Spare up = SpareCapacity.spare(3.75 * G, 20.0 / 3 * G, 15 * G, 20 * G, 1.0 / 3, NONE, true, NONE);
    assertEquals(20 * 5.0 / 12, down.bytesPerSecond() / G, 1e-9);
    assertEquals(15 * 5.0 / 12, up.bytesPerSecond() / G, 1e-9);
    assertEquals(Bound.CPU, down.bound());
    assertEquals(7.0 / 12, down.load(), 1e-9);
  }

  @Test
  void fractionsPastOneLeaveNothingEitherWay() {
    // The 4-core peer: 6.6 of 7 Gbps download and 0.93 of 4 Gbps upload is 1.18 of one CPU.
    Spare down = SpareCapacity.spare(6.6 * G, 0.93 * G, 7 * G, 4 * G, 0.95, NONE, true, NONE);
    Spare up = SpareCapacity.spare(0.93 * G, 6.6 * G, 4 * G, 7 * G, 0.95, NONE, true, NONE);
    assertEquals(0, down.bytesPerSecond());
    assertEquals(0, up.bytesPerSecond());
    assertEquals(6.6 / 7 + 0.93 / 4, up.load(), 1e-9);
  }

  @Test
  void busyCoresBeyondWhatTheCeilingsPredictCount() {
    // 1 Gbps of a 10 Gbps ceiling, but 60 % of the cores busy (a slower CPU, or other work): 40 % is left.
    Spare s = SpareCapacity.spare(1 * G, 0, 10 * G, 10 * G, 0.6, NONE, true, NONE);
    assertEquals(4.0, s.bytesPerSecond() / G, 1e-9);
    assertEquals(0.6, s.load(), 1e-9);
  }

  @Test
  void pastTheKneeUploadIsHeldByItsOwnCeilingAndDownloadByTheIdleCores() {
    Spare up = SpareCapacity.spare(14.5 * G, 0.4 * G, 15 * G, 25 * G, 0.28, NONE, false, NONE);
    Spare down = SpareCapacity.spare(0.4 * G, 14.5 * G, 25 * G, 15 * G, 0.28, NONE, false, NONE);
    assertEquals(0.5, up.bytesPerSecond() / G, 1e-9);
    assertEquals(Bound.CEILING, up.bound());
    assertEquals(0.72 * 25, down.bytesPerSecond() / G, 1e-9, "upload at its knee does not eat download's cores");
    assertEquals(Bound.CPU, down.bound());
  }

  @Test
  void pastTheKneeWithoutACpuReadingTheLargerFractionCounts() {
    Spare down = SpareCapacity.spare(5 * G, 12 * G, 25 * G, 15 * G, NONE, NONE, false, NONE);
    assertEquals(0.2 * 25, down.bytesPerSecond() / G, 1e-9, "upload's 0.8 is the least the CPU carries");
  }

  @Test
  void withoutACpuReadingTheFractionsAloneCount() {
    Spare s = SpareCapacity.spare(2 * G, 1 * G, 8 * G, 4 * G, NONE, NONE, true, NONE);
    assertEquals(0.5 * 8, s.bytesPerSecond() / G, 1e-9);
  }

  @Test
  void theUnderlaysFreeLineRateHoldsTheSpareWhenSmaller() {
    Spare s = SpareCapacity.spare(1 * G, 0, 10 * G, 10 * G, 0.1, NONE, true, 0.8 * G);
    assertEquals(0.8, s.bytesPerSecond() / G, 1e-9);
    assertEquals(Bound.UNDERLAY, s.bound());
    assertEquals(0, SpareCapacity.spare(1 * G, 0, 10 * G, 10 * G, 0.1, NONE, true, -5).bytesPerSecond(),
        "an underlay past its line rate leaves nothing, never a negative spare");
  }

  @Test
  void aRateAboveItsCeilingLeavesNothingNotANegativeSpare() {
    Spare s = SpareCapacity.spare(9 * G, 0, 8 * G, 4 * G, 0.5, NONE, true, NONE);
    assertEquals(0, s.bytesPerSecond());
  }

  @Test
  void unknownRatesOrCeilingsClaimNothing() {
    for (Spare s : new Spare[] {
        SpareCapacity.spare(NONE, 0, 10 * G, 10 * G, 0.1, NONE, true, NONE),
        SpareCapacity.spare(1 * G, NONE, 10 * G, 10 * G, 0.1, NONE, true, NONE),
        SpareCapacity.spare(1 * G, 0, 0, 10 * G, 0.1, NONE, true, NONE),
        SpareCapacity.spare(1 * G, 0, 10 * G, 0, 0.1, NONE, true, NONE),
        SpareCapacity.spare(1 * G, 0, NONE, 10 * G, 0.1, NONE, true, NONE),
        SpareCapacity.spare(1 * G, 0, 10 * G, Double.POSITIVE_INFINITY, 0.1, NONE, true, NONE)}) {
      assertTrue(Double.isNaN(s.bytesPerSecond()), s.toString());
      assertEquals(Bound.UNKNOWN, s.bound());
    }
  }

  @Test
  void aCpuQuotaIsTheCoresTheBusyShareIsTakenOf() {
    // 2.4 busy cores of 8 online under a 2.5-core quota: 96 % of what the peer may use.
    Observation o = Observation.builder(Datapath.KERNEL, 8).cpuQuotaCores(2.5).coreBusy(cores(8, 0.3))
        .throughput(1 * G, 0.1 * G).build();
    assertEquals(0.96, SpareCapacity.busyShare(o), 1e-9);
    Spare down = SpareCapacity.of(o, ceilings(4, 2.75)).get(DOWNLOAD);
    assertEquals(0.04 * 4, down.bytesPerSecond() / G, 1e-9);
  }

  @Test
  void aUserspaceDatapathIsReadAgainstTheCoresItCanKeepBusy() {
    // wireguard-go on 8 cores keeps ~4 busy: 3.6 of them is 90 % of its CPU though the box is under half busy.
    Observation o = Observation.builder(Datapath.USERSPACE, 8).coreBusy(cores(8, 0.45)).datapathCpuCores(3.6)
        .throughput(2 * G, 0.5 * G).build();
    assertEquals(0.45, SpareCapacity.busyShare(o), 1e-9);
    assertEquals(0.9, SpareCapacity.datapathShare(o), 1e-9);
    Spare down = SpareCapacity.of(o, ceilings(6.8, 3.7)).get(DOWNLOAD);
    // 90 % of its cores in use, though the ceilings price 2 / 0.5 Gbps at 43 %: a tenth of its ceiling left.
    assertEquals(0.1 * 6.8, down.bytesPerSecond() / G, 1e-9);
    assertEquals(0.9, down.load(), 1e-9);
    assertTrue(SpareCapacity.fractionsAdd(o), "both directions share wireguard-go's cores");
  }

  @Test
  void theSpareIsReadAgainstTheCeilingInUseWithNoScaleOfItsOwn() {
    // wireguard-go confined to 1 of 2 cores on 1 GbE, at half the 635 Mbit/s it plateaus at, read against the cost
    // ceiling that prices its packets (0.635 Gbps): its core 55 % busy leaves 45 % of that ceiling.
    Observation o = Observation.builder(Datapath.USERSPACE, 2).lineRate(1 * G).underlayUtilization(0.34, 0.01)
        .coreBusy(0.55, 0.3).datapathCpuCores(0.5).datapathCpuLimitCores(1).datapathAllowedBusy(0.55)
        .throughput(0.3175 * G, 0.01 * G).build();
    Spare down = SpareCapacity.of(o, ceilings(0.635, 0.635)).get(DOWNLOAD);
    assertEquals(0.45 * 0.635, down.bytesPerSecond() / G, 1e-9, "its core 55 % busy: 45 % left");
    assertEquals(SpareCapacity.Bound.CPU, down.bound());
    // Against the reference's 0.945 Gbps the same load leaves more: the spare follows the ceiling the verdict reads.
    Spare reference = SpareCapacity.of(o, ceilings(0.945, 0.945)).get(DOWNLOAD);
    assertEquals(0.45 * 0.945, reference.bytesPerSecond() / G, 1e-9);
  }

  @Test
  void aDatapathBarelyBusyIsOverheadNotACostPerByte() {
    Spare s = SpareCapacity.spare(0.001 * G, 0, 10 * G, 10 * G, 0.05, 0.05, true, NONE);
    assertEquals(0.95 * 10, s.bytesPerSecond() / G, 1e-9, "keepalives at idle do not shrink the ceiling");
  }

  @Test
  void pastTheKneeTheDatapathsCostDoesNotScaleTheCeilings() {
    Spare down = SpareCapacity.spare(0.4 * G, 14.5 * G, 25 * G, 15 * G, 0.28, 0.6, false, NONE);
    assertEquals(0.4 * 25, down.bytesPerSecond() / G, 1e-9, "the datapath's 60 % is the load, not a price");
  }

  @Test
  void theDirectionsSeparateOnlyWhereTheReferencesShapeLeavesKernelCoresIdleAtBothCeilings() {
    assertTrue(SpareCapacity.fractionsAdd(Observation.builder(Datapath.KERNEL, 16).build()), "10 + 7.5 > 16 cores");
    assertEquals(false, SpareCapacity.fractionsAdd(Observation.builder(Datapath.KERNEL, 24).build()),
        "11.25 + 7.5 < 24 cores");
    assertEquals(false, SpareCapacity.fractionsAdd(Observation.builder(Datapath.KERNEL, 32).build()));
    assertTrue(SpareCapacity.fractionsAdd(Observation.builder(Datapath.KERNEL, 32).cpuQuotaCores(8).build()),
        "a quota of 8 cores is below the knee");
  }

  @Test
  void theUnderlaysSpareIsTheFreeLineRateLessTheWireguardHeaders() {
    Observation o = Observation.builder(Datapath.KERNEL, 4).lineRate(10 * G).underlayUtilization(0.7, NONE).build();
    assertEquals(3.0 * 1280 / 1354, SpareCapacity.underlaySpare(o, DOWNLOAD) / G, 1e-9);
    assertTrue(Double.isNaN(SpareCapacity.underlaySpare(o, UPLOAD)), "receive side unknown");
    Observation noLine = Observation.builder(Datapath.KERNEL, 4).underlayUtilization(0.7, 0.1).build();
    assertTrue(Double.isNaN(SpareCapacity.underlaySpare(noLine, DOWNLOAD)));
  }

  @Test
  void noTunnelDatapathClaimsNoSpare() {
    Observation o = Observation.builder(Datapath.ABSENT, 4).coreBusy(cores(4, 0.1)).build();
    assertEquals(Spare.UNKNOWN, SpareCapacity.of(o, ceilings(7, 4)).get(UPLOAD));
  }
}
