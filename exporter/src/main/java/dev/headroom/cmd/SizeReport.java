package dev.headroom.cmd;

import static dev.headroom.judge.Units.num;

import dev.headroom.judge.ReferenceProfile;
import dev.headroom.judge.Sizing;
import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Set;

/**
 * The terminal words of {@code headroom size}: the four steps of a {@link Sizing.Plan} and the notes it raised.
 *
 * <p>Usage: {@code new SizeReport(inputs, Sizing.plan(inputs), "as given").print(System.out);}
 *
 * @param in            what was sized
 * @param plan          the plan for {@code in}
 * @param capacityBasis where one peer's capacity came from, in words
 */
record SizeReport(Sizing.Inputs in, Sizing.Plan plan, String capacityBasis) {
  /** Prints the plan; every figure is the plan's, the inputs' or the reference profile's. */
  void print(PrintStream out) {
    long users = in.activeUsers();
    double perUserMbps = in.perUserMbps();
    Direction direction = in.direction();
    Datapath datapath = in.datapath();
    int vcpus = in.vcpus();
    long perNetwork = in.peersPerNetwork();
    double peakGbps = plan.peakGbps();
    double capacityGbps = plan.capacityGbps();
    long active = plan.activePeers();
    String dir = direction.label();
    out.println("Sizing routing peers for " + dir + (direction == Direction.DOWNLOAD
        ? " (users pull; the peer encrypts)" : " (users push; the peer decrypts)"));
    out.println("1. Peak demand: " + String.format(Locale.ROOT, "%,d", users) + " active users x "
        + num(perUserMbps, 3) + " Mbps = " + num(peakGbps, 2) + " Gbps " + dir);
    String basis = capacityBasis;
    if (plan.notes().contains(Sizing.Note.INTERFACE_BOUND)) {
      basis = "its NIC carries " + num(plan.nicGbps(), 2) + " Gbps inside the tunnel, less than the CPU's "
          + num(plan.cpuGbps(), 2) + " Gbps (" + capacityBasis + ")";
    } else if (!Double.isNaN(plan.nicGbps())) {
      basis += "; its NIC carries " + num(plan.nicGbps(), 2) + " Gbps";
    }
    String range = plan.lowGbps() < plan.highGbps()
        ? ", range " + num(plan.lowGbps(), 2) + "-" + num(plan.highGbps(), 2) + " Gbps" : "";
    out.println("2. One peer carries " + num(capacityGbps, 2) + " Gbps " + dir + " (" + basis + range + ")");
    if (vcpus > 0 && !datapath.userspace()) {
      out.println("   The reference pairs " + vcpus + " vCPUs with a " + num(ReferenceProfile.interfaceGbps(vcpus), 1)
          + " Gbps interface.");
    }
    out.println("3. Active peers: ceil(" + num(peakGbps, 2) + " / " + num(capacityGbps, 2) + ") = " + active);
    if (active == 0) {
      out.println("4. No throughput to carry: 1 Network x " + perNetwork + " peers = " + perNetwork
          + " peers, for availability only (a Network keeps serving when one routing peer fails)");
    } else {
      out.println("4. " + active + (active == 1 ? " Network" : " Networks") + " x " + perNetwork + " peers = "
          + plan.peers() + " peers, ~" + num(plan.perNetworkGbps(), 2) + " Gbps per Network ("
          + Math.round(100 * plan.load()) + "% of one peer's " + num(capacityGbps, 2) + " Gbps)");
    }
    out.println("Each Network exposes the same resources; its routing peers fail over (or serve the nearest"
        + " clients), they never share load; a policy splits client groups across the Networks.");
    Set<Sizing.Note> n = plan.notes();
    if (n.contains(Sizing.Note.PAST_NEAR_CEILING)) {
      out.println("Note: each Network would run at " + Math.round(100 * plan.load()) + "% of one peer, past the "
          + Math.round(100 * Sizing.NEAR_CEILING) + "% at which HeadroomPeerNearCeiling warns; " + plan.roomyNetworks()
          + " Networks keep " + Math.round(100 * (1 - Sizing.NEAR_CEILING)) + "% headroom.");
    }
    if (n.contains(Sizing.Note.NO_FAILOVER)) {
      out.println("Note: 1 peer per Network has no failover; use 2 or more.");
    }
    if (n.contains(Sizing.Note.USER_OVER_ONE_TUNNEL)) {
      out.println("Note: one user's " + num(perUserMbps / 1000.0, 2) + " Gbps exceeds what one tunnel carries (about "
          + num(Math.min(ReferenceProfile.tableGbps(datapath, 1, direction), capacityGbps), 2) + " Gbps here). One"
          + " user is one tunnel, handled mostly on one core; no number of Networks raises that.");
    }
    if (n.contains(Sizing.Note.BEYOND_LARGEST_PEER)) {
      out.println("Note: no single peer carries " + num(peakGbps, 2) + " Gbps " + dir + " (the largest reference peer, "
          + ReferenceProfile.TABLE_TOP_CORES + " vCPUs " + datapath.label() + ", carries "
          + num(ReferenceProfile.tableGbps(datapath, ReferenceProfile.TABLE_TOP_CORES, direction), 2)
          + " Gbps): scaling out is the only way.");
    }
    int knee = ReferenceProfile.KNEE_CORES;
    if (n.contains(Sizing.Note.UPLOAD_FLATTENS)) {
      out.println("Note: upload (decryption) flattens at ~" + num(ReferenceProfile.tableGbps(Datapath.KERNEL, knee,
          Direction.UPLOAD), 1) + " Gbps from " + knee + " vCPUs; past " + knee + " vCPUs add peers, not cores.");
    }
    if (n.contains(Sizing.Note.DOWNLOAD_PAST_KNEE)) {
      out.println("Note: past " + knee + " vCPUs download gains little ("
          + num(ReferenceProfile.tableGbps(Datapath.KERNEL, knee, Direction.DOWNLOAD), 1) + " Gbps at " + knee + ", "
          + num(ReferenceProfile.tableGbps(Datapath.KERNEL, ReferenceProfile.TABLE_TOP_CORES, Direction.DOWNLOAD), 1)
          + " Gbps at " + ReferenceProfile.TABLE_TOP_CORES + "); " + knee
          + "-vCPU peers in more Networks usually cost less.");
    }
    if (n.contains(Sizing.Note.USERSPACE_PLATEAU)) {
      out.println("Note: userspace WireGuard plateaus near "
          + num(ReferenceProfile.userspacePlateauGbps(Direction.DOWNLOAD), 1) + " Gbps download and "
          + num(ReferenceProfile.tableGbps(Datapath.USERSPACE, 8, Direction.UPLOAD), 1) + "-"
          + num(ReferenceProfile.userspacePlateauGbps(Direction.UPLOAD), 1) + " Gbps upload from "
          + ReferenceProfile.USERSPACE_KNEE_CORES + " vCPUs; kernel WireGuard carries several times more on the same peer.");
    }
    if (n.contains(Sizing.Note.INTERFACE_BOUND)) {
      out.println("Note: the NIC, not the CPU, sets this peer's capacity, so download and upload both meet it; a"
          + " faster interface raises it up to the CPU's " + num(plan.cpuGbps(), 2) + " Gbps.");
    }
    if (n.contains(Sizing.Note.PREFER_LARGER_PEERS)) {
      out.println("Note: " + active + " peers of " + vcpus + " vCPUs; " + plan.sixteenCorePeers() + " of " + knee
          + " vCPUs would carry the same: 16-32 vCPU peers usually need far fewer boxes.");
    }
    out.println("Confirm one peer's capacity on your hardware with `headroom profile` and size again with"
        + " --profile.file.");
  }
}
