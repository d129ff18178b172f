package dev.headroom.judge;

import static dev.headroom.sample.Direction.DOWNLOAD;
import static dev.headroom.sample.Direction.UPLOAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.judge.Sizing.Inputs;
import dev.headroom.judge.Sizing.Note;
import dev.headroom.judge.Sizing.Plan;
import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.util.OptionalDouble;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SizingTest {
  /** A peer of {@code vcpus} from the reference table, MTU 1280, no NIC given, 2 peers per Network. */
  private static Inputs reference(long users, double perUserMbps, Direction d, Datapath dp, int vcpus) {
    return new Inputs(users, perUserMbps, d, dp, vcpus, ReferenceProfile.tableGbps(dp, vcpus, d),
        OptionalDouble.empty(), ReferenceProfile.BASE_MTU, 2, true);
  }

  private static Inputs withNic(Inputs in, double gbps) {
    return new Inputs(in.activeUsers(), in.perUserMbps(), in.direction(), in.datapath(), in.vcpus(), in.cpuGbps(),
        OptionalDouble.of(gbps), in.tunnelMtu(), in.peersPerNetwork(), in.fromReference());
  }

  @Test
  void theWorkedExampleIsTwoNetworksOfTwoAtSeventyFivePercent() {
    Plan p = Sizing.plan(reference(3000, 10, DOWNLOAD, Datapath.KERNEL, 16));
    assertEquals(30, p.peakGbps(), 1e-9);
    assertEquals(20, p.capacityGbps(), 1e-9);
    assertEquals(16, p.lowGbps(), 1e-9, "the reference holds to about -20 %");
    assertEquals(24, p.highGbps(), 1e-9);
    assertEquals(2, p.activePeers());
    assertEquals(4, p.peers());
    assertEquals(0.75, p.load(), 1e-9);
    assertEquals(Set.of(), p.notes());
  }

  @Test
  void aTwoCoreMiniPcOnGigabitIsSizedByItsPortAndBothDirectionsMeetIt() {
    Plan down = Sizing.plan(withNic(reference(100, 9, DOWNLOAD, Datapath.KERNEL, 2), 1));
    Plan up = Sizing.plan(withNic(reference(100, 9, UPLOAD, Datapath.KERNEL, 2), 1));
    double port = 1.0 * 1280 / 1354;
    assertEquals(port, down.capacityGbps(), 1e-9, "not the table's 3 Gbps");
    assertEquals(port, up.capacityGbps(), 1e-9);
    assertEquals(3, down.cpuGbps(), 1e-9);
    assertTrue(down.notes().contains(Note.INTERFACE_BOUND));
    assertEquals(down.capacityGbps(), down.highGbps(), 1e-9, "a port has no ±20 %");
  }

  @Test
  void oneUserFasterThanOneTunnelIsNotedEvenWhenAPeerCarriesMore() {
    Plan p = Sizing.plan(reference(10, 3000, DOWNLOAD, Datapath.KERNEL, 32));
    assertTrue(p.notes().contains(Note.USER_OVER_ONE_TUNNEL), p.notes().toString());
    assertFalse(Sizing.plan(reference(10, 500, DOWNLOAD, Datapath.KERNEL, 32)).notes()
        .contains(Note.USER_OVER_ONE_TUNNEL));
  }

  @Test
  void smallPeersNeedingManyMoreBoxesThanSixteenCoreOnesGetTheNudge() {
    Plan p = Sizing.plan(reference(3000, 10, DOWNLOAD, Datapath.KERNEL, 2));
    assertEquals(10, p.activePeers());
    assertEquals(2, p.sixteenCorePeers());
    assertTrue(p.notes().contains(Note.PREFER_LARGER_PEERS));
  }

  @Test
  void aJumboTunnelScalesTheReferenceAndTheUserspacePlateauIsTheTables() {
    Inputs jumbo = new Inputs(1000, 50, DOWNLOAD, Datapath.KERNEL, 64, ReferenceProfile.tableGbps(Datapath.KERNEL, 64,
        DOWNLOAD), OptionalDouble.empty(), 8920, 2, true);
    assertEquals(95, Sizing.plan(jumbo).capacityGbps(), 1e-9);
    Plan u = Sizing.plan(reference(3000, 10, DOWNLOAD, Datapath.USERSPACE, 16));
    assertEquals(6.8, u.capacityGbps(), 1e-9);
    assertTrue(u.notes().contains(Note.USERSPACE_PLATEAU));
  }

  @Test
  void uploadPastTheKneeIsFlatAndSaysSo() {
    Plan p = Sizing.plan(reference(3000, 10, UPLOAD, Datapath.KERNEL, 32));
    assertEquals(15, p.capacityGbps(), 1e-9);
    assertEquals(2, p.activePeers());
    assertEquals(3, p.roomyNetworks());
    assertEquals(Set.of(Note.PAST_NEAR_CEILING, Note.UPLOAD_FLATTENS, Note.BEYOND_LARGEST_PEER), p.notes(),
        "30 Gbps upload is past the 15 any one peer carries");
  }
}
