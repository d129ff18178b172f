package dev.headroom.judge;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.util.EnumSet;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The sizing guide's four steps as arithmetic alone: peak demand, one peer's capacity (the smaller of its CPU
 * figure and its NIC), active peers, Networks of failover peers; plus the facts the guide warns about. No flags, no
 * printing: {@code headroom size} parses into {@link Inputs} and prints the {@link Plan}.
 *
 * <p>Usage: {@code Sizing.Plan p = Sizing.plan(new Sizing.Inputs(3000, 10, Direction.DOWNLOAD, Datapath.KERNEL, 16, 20,
 * OptionalDouble.empty(), 1280, 2, true));}
 */
public final class Sizing {
  private Sizing() {}

  /** Share of a peer's capacity at which the near-ceiling alert warns: the daemon's own near-ceiling threshold. */
  public static final double NEAR_CEILING = Thresholds.defaults().nearCeiling();
  /** The reference figures hold to about this much either way. */
  public static final double SPREAD = 0.20;
  /** Peers this small needing this many more boxes than a 16-vCPU peer are worth the nudge. */
  static final double NUDGE_FACTOR = 2;

  /** What the guide warns about, as facts. */
  public enum Note {
    /** One peer per Network: no failover. */
    NO_FAILOVER,
    /** Each Network would run past the near-ceiling warning. */
    PAST_NEAR_CEILING,
    /** One user is faster than one tunnel carries: no number of Networks raises that. */
    USER_OVER_ONE_TUNNEL,
    /** No single peer carries the peak: scaling out is the only way. */
    BEYOND_LARGEST_PEER,
    /** Kernel upload flattens from the knee. */
    UPLOAD_FLATTENS,
    /** Past the knee download gains little. */
    DOWNLOAD_PAST_KNEE,
    /** Userspace plateaus whatever the cores. */
    USERSPACE_PLATEAU,
    /** The NIC, not the CPU, sets the capacity: download and upload converge on it. */
    INTERFACE_BOUND,
    /** 16-32 vCPU peers would need far fewer boxes. */
    PREFER_LARGER_PEERS
  }

  /**
   * @param activeUsers      users active at the busiest time
   * @param perUserMbps      what one active user moves in the direction, Mbps
   * @param datapath         kernel or userspace (for the reference and the notes)
   * @param vcpus            the peer's vCPUs; 0 when the capacity is given or measured
   * @param cpuGbps          one peer's CPU capacity in the direction (table, given, or measured)
   * @param lineRateGbps     the peer's NIC, Gbps; empty when not given
   * @param tunnelMtu        tunnel MTU (the NIC's inner capacity depends on it)
   * @param peersPerNetwork  routing peers per Network for failover
   * @param fromReference    the capacity came from the reference tables (so the ±20 % spread applies)
   */
  public record Inputs(long activeUsers, double perUserMbps, Direction direction, Datapath datapath, int vcpus,
      double cpuGbps, OptionalDouble lineRateGbps, int tunnelMtu, long peersPerNetwork, boolean fromReference) {}

  /**
   * @param peakGbps        peak demand
   * @param cpuGbps         one peer's CPU figure (jumbo-scaled for the reference at a larger MTU)
   * @param nicGbps         what the NIC carries inside the tunnel, NaN when no NIC was given
   * @param capacityGbps    one peer's capacity: the smaller of the two
   * @param lowGbps         the capacity's low end (-20 % for reference figures, else the capacity)
   * @param highGbps        ... and high end
   * @param activePeers     ceil(peak / capacity)
   * @param peers           Networks (one per active peer, at least one) x peers per Network
   * @param perNetworkGbps  load per Network
   * @param load            load per Network as a share of one peer
   * @param roomyNetworks   Networks that keep each at or below the near-ceiling share
   * @param sixteenCorePeers active peers a 16-vCPU reference peer would need (for the nudge), 0 if not applicable
   * @param notes           what the guide warns about
   */
  public record Plan(double peakGbps, double cpuGbps, double nicGbps, double capacityGbps, double lowGbps,
      double highGbps, long activePeers, long peers, double perNetworkGbps, double load,
      long roomyNetworks, long sixteenCorePeers, Set<Note> notes) {
    public Plan {
      notes = Set.copyOf(notes);
    }
  }

  /**
   * One peer's CPU capacity in a direction, Gbps, at {@code vcpus} of this CPU on {@code target}: the cost a peer
   * learned on {@code learnedOn}, spread over the cores as the reference's was ({@link ThisCpu}), at full packets of
   * {@code tunnelMtu}; NaN while the cost is not usable.
   */
  public static double thisCpuGbps(CostModel.Estimate e, Datapath learnedOn, Datapath target, int vcpus, int tunnelMtu,
      Direction d) {
    ThisCpu.Size s = ThisCpu.at(e, restingPeer(learnedOn, vcpus, tunnelMtu), target, vcpus);
    return s == null ? Double.NaN : Units.gbps(s.bytesPerSecond().get(d));
  }

  /** A peer of this shape at rest: what a learned cost is read against where no sample is at hand. */
  public static Observation restingPeer(Datapath datapath, int cores, int tunnelMtu) {
    return Observation.builder(datapath, cores).tunnelMtu(tunnelMtu).coreBusy(new double[cores]).build();
  }

  public static Plan plan(Inputs in) {
    Direction d = in.direction();
    double peak = in.activeUsers() * in.perUserMbps() / 1000.0;
    double cpu = in.cpuGbps() * (in.fromReference() ? ReferenceProfile.jumboFactor(in.datapath(), in.tunnelMtu(), d) : 1);
    double nic = in.lineRateGbps().isPresent()
        ? Units.gbps(ReferenceProfile.innerLineRate(Units.bytesPerSecond(in.lineRateGbps().getAsDouble()), in.tunnelMtu()))
        : Double.NaN;
    double capacity = Double.isNaN(nic) ? cpu : Math.min(cpu, nic);
    boolean interfaceBound = !Double.isNaN(nic) && nic < cpu;
    double low = in.fromReference() && !interfaceBound ? capacity * (1 - SPREAD) : capacity;
    double high = in.fromReference() && !interfaceBound ? capacity * (1 + SPREAD) : capacity;
    long active = (long) Math.ceil(peak / capacity - 1e-9);
    long networks = Math.max(1, active);
    double perNetwork = active == 0 ? 0 : peak / active;
    double load = active == 0 ? 0 : perNetwork / capacity;
    long roomy = (long) Math.ceil(peak / (NEAR_CEILING * capacity) - 1e-9);

    EnumSet<Note> notes = EnumSet.noneOf(Note.class);
    if (in.peersPerNetwork() < 2) {
      notes.add(Note.NO_FAILOVER);
    }
    if (load > NEAR_CEILING) {
      notes.add(Note.PAST_NEAR_CEILING);
    }
    // One user is one tunnel, handled mostly on one core: the single-core table row, whatever the peer's size.
    double oneTunnel = ReferenceProfile.tableGbps(in.datapath(), 1, d);
    if (in.perUserMbps() / 1000.0 > Math.min(oneTunnel, capacity)) {
      notes.add(Note.USER_OVER_ONE_TUNNEL);
    }
    if (peak > ReferenceProfile.tableGbps(in.datapath(), ReferenceProfile.TABLE_TOP_CORES, d)) {
      notes.add(Note.BEYOND_LARGEST_PEER);
    }
    boolean kernel = in.datapath() != Datapath.USERSPACE;
    if (kernel && d == Direction.UPLOAD && active > 0) {
      notes.add(Note.UPLOAD_FLATTENS);
    } else if (kernel && d == Direction.DOWNLOAD && ReferenceProfile.pastKnee(in.datapath(), in.vcpus())
        && in.vcpus() > ReferenceProfile.KNEE_CORES) {
      notes.add(Note.DOWNLOAD_PAST_KNEE);
    }
    if (!kernel) {
      notes.add(Note.USERSPACE_PLATEAU);
    }
    if (interfaceBound) {
      notes.add(Note.INTERFACE_BOUND);
    }
    long sixteen = 0;
    if (kernel && in.vcpus() > 0 && in.vcpus() < ReferenceProfile.KNEE_CORES && active > 1) {
      sixteen = (long) Math.ceil(peak / ReferenceProfile.tableGbps(Datapath.KERNEL, ReferenceProfile.KNEE_CORES, d) - 1e-9);
      if (active >= NUDGE_FACTOR * sixteen) {
        notes.add(Note.PREFER_LARGER_PEERS);
      }
    }
    return new Plan(peak, cpu, nic, capacity, low, high, active, networks * in.peersPerNetwork(),
        perNetwork, load, roomy, sixteen, notes);
  }
}
