package dev.headroom.judge;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import dev.headroom.sample.PerDirection;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The built-in capacity of one routing peer, from NetBird's sizing guide: measured on a 64-vCPU Ice Lake box
 * (Xeon 8375C, 100 Gbps NIC, c6in.16xlarge) with cores taken offline for the smaller sizes, TCP over many
 * tunnels, tunnel MTU 1280. Expect about ±20 %.
 *
 * <p>Rows are keyed by online cores; between rows the figure is interpolated linearly, outside them it is
 * clamped (fewer than 1 core: the 1-core row; more than 64: the 64-core row). Jumbo tunnel MTUs scale the
 * figure by a factor interpolated between the measured 1280 and 8920 points. A known NIC line rate caps it.
 *
 * <p>Usage: {@code Ceiling c = ReferenceProfile.ceiling(Datapath.KERNEL, 16, 1280, OptionalDouble.of(1.25e9), DOWNLOAD);}
 */
public final class ReferenceProfile {
  private ReferenceProfile() {}

  /** Past this many cores a kernel peer gains little: add a peer, not cores. Upload is flat from here. */
  public static final int KNEE_CORES = 16;
  /**
   * Up to this many cores a kernel peer's cores each carry what its first does ({@link #effectiveCores}): the
   * table's 2-core row (1.5 Gbps a core) is within its own scatter below 8 cores (1.5 to 2.0), and a cost measured
   * on one or two cores holds there as measured.
   */
  static final double KERNEL_LINEAR_CORES = 2;
  /** The largest machine the tables were measured on. */
  public static final int TABLE_TOP_CORES = 64;
  /** Userspace (wireguard-go) stops gaining from 4 cores: it uses ~3-5 cores however many there are. */
  public static final int USERSPACE_KNEE_CORES = 4;
  /** Bytes a packet gains on the underlay: 32 WireGuard + 8 UDP + 20 IPv4 + 14 Ethernet. */
  public static final int UNDERLAY_OVERHEAD_BYTES = 74;
  /** The tunnel MTU the tables were measured at (NetBird's default). */
  public static final int BASE_MTU = 1280;
  /** The jumbo tunnel MTU measured on a 9001-byte underlay. */
  public static final int JUMBO_MTU = 8920;

  // Kernel WireGuard, MTU 1280: vCPUs, smallest NIC that does not cap it (Gbps), download Gbps, upload Gbps.
  static final double[] KERNEL_CORES = {1, 2, 4, 8, 16, 32, 64};
  static final double[] KERNEL_INTERFACE_GBPS = {2.5, 5, 10, 15, 25, 50, 100};
  static final PerDirection<double[]> KERNEL_GBPS = new PerDirection<>(new double[] {2, 3, 7, 13, 20, 25, 31},
      new double[] {2, 3, 4, 11, 15, 15, 15});

  // Userspace wireguard-go, MTU 1280: vCPUs, download Gbps, upload Gbps, cores it actually used.
  static final double[] USERSPACE_CORES = {1, 2, 4, 8, 16, 64};
  static final PerDirection<double[]> USERSPACE_GBPS = new PerDirection<>(new double[] {1.6, 2.3, 6.8, 6.8, 6.8, 5.8},
      new double[] {1.4, 1.9, 3.5, 3.7, 3.7, 4.4});
  static final double[] USERSPACE_CORES_USED = {1, 2, 3, 4, 4, 5};

  /**
   * NetBird's netstack datapath (WireGuard and gVisor's TCP/IP stack in one process, no TUN) has no published
   * figure; until it is measured its table is this share of the wireguard-go table, core for core: the same
   * crypto with the kernel's TCP/IP work moved into the process as well. Replace it by a measured profile
   * ({@code headroom profile}) where it matters.
   */
  public static final double NETSTACK_SHARE_OF_USERSPACE = 0.5;

  // 64 vCPU kernel WireGuard: MTU 1280 -> 8920 took download 31 -> 95 Gbps (NIC line rate, so a floor)
  // and upload 15 -> 66 Gbps. Userspace gains ~2.5x from jumbo frames.
  static final PerDirection<Double> KERNEL_JUMBO_FACTOR = new PerDirection<>(95.0 / 31.0, 66.0 / 15.0);
  static final double USERSPACE_JUMBO_FACTOR = 2.5;

  /** The ceiling for a peer of this shape, from the tables alone, for full packets of the tunnel MTU. */
  public static Ceiling ceiling(Datapath datapath, double onlineCores, int tunnelMtu,
      OptionalDouble lineRateBytesPerSecond, Direction direction) {
    return ceiling(datapath, onlineCores, tunnelMtu, lineRateBytesPerSecond, direction, tunnelMtu);
  }

  /**
   * The ceiling for a peer of this shape, from the tables alone, for packets of {@code packetBytes}: the tables were
   * measured with full packets of the tunnel MTU ({@link PacketSize}).
   */
  public static Ceiling ceiling(Datapath datapath, double onlineCores, int tunnelMtu,
      OptionalDouble lineRateBytesPerSecond, Direction direction, double packetBytes) {
    double factor = jumboFactor(datapath, tunnelMtu, direction);
    double bytes = Units.bytesPerSecond(tableGbps(datapath, onlineCores, direction) * factor)
        * PacketSize.scale(datapath, direction, tunnelMtu, packetBytes);
    OptionalDouble cappedBy = OptionalDouble.empty();
    if (lineRateBytesPerSecond.isPresent() && innerLineRate(lineRateBytesPerSecond.getAsDouble(), packetBytes) < bytes) {
      bytes = innerLineRate(lineRateBytesPerSecond.getAsDouble(), packetBytes);
      cappedBy = lineRateBytesPerSecond;
    }
    return new Ceiling(bytes, CeilingSource.REFERENCE, cappedBy.isPresent(),
        new Ceiling.Reference(datapath, onlineCores, tunnelMtu, factor, cappedBy), Optional.empty());
  }

  /** The core counts the table for a datapath has rows for, smallest first. */
  public static double[] coreRows(Datapath datapath) {
    return (datapath.userspace() ? USERSPACE_CORES : KERNEL_CORES).clone();
  }

  /**
   * The table figure in Gbps at MTU 1280 with no NIC cap, interpolated by cores. ABSENT reads the kernel table;
   * NETSTACK the userspace table times {@link #NETSTACK_SHARE_OF_USERSPACE}.
   */
  public static double tableGbps(Datapath datapath, double onlineCores, Direction direction) {
    if (datapath.userspace()) {
      double g = interpolate(USERSPACE_CORES, USERSPACE_GBPS.get(direction), onlineCores);
      return datapath == Datapath.NETSTACK ? g * NETSTACK_SHARE_OF_USERSPACE : g;
    }
    return interpolate(KERNEL_CORES, KERNEL_GBPS.get(direction), onlineCores);
  }

  /**
   * How much a tunnel MTU above 1280 multiplies the 1280 figure: 1 at or below 1280, the measured factor at
   * 8920 and above, linear in MTU between (an interpolation, not a measurement).
   */
  public static double jumboFactor(Datapath datapath, int tunnelMtu, Direction direction) {
    double full = datapath.userspace() ? USERSPACE_JUMBO_FACTOR
        : KERNEL_JUMBO_FACTOR.get(direction);
    if (tunnelMtu <= BASE_MTU) {
      return 1.0;
    }
    if (tunnelMtu >= JUMBO_MTU) {
      return full;
    }
    return 1.0 + (full - 1.0) * (tunnelMtu - BASE_MTU) / (double) (JUMBO_MTU - BASE_MTU);
  }

  /**
   * The reference's shape across cores: how many of its first core's worth of work the reference box did at
   * {@code cores} in a direction, its figure there over its one-core figure (kernel download: 10 at 16 cores, 12.5 at
   * 32, 15.5 at 64; upload 7.5 from 16 on; wireguard-go at most 4.25). Never more than the cores themselves, and for
   * kernel WireGuard never fewer than {@link #KERNEL_LINEAR_CORES}. A cost learned at partial load times this is
   * the ceiling: the shape assumes the bend is cores left idle (serial per-tunnel stages), see docs/verdict.md.
   */
  public static double effectiveCores(Datapath datapath, double cores, Direction direction) {
    double shape = tableGbps(datapath, cores, direction) / tableGbps(datapath, 1, direction);
    double linear = datapath.userspace() ? 1 : KERNEL_LINEAR_CORES;
    return Math.min(cores, Math.max(Math.min(cores, linear), shape));
  }

  /** What one core of the reference box carried in a direction (its one-core row), bytes/s at MTU 1280. */
  public static double perCoreBytes(Datapath datapath, Direction direction) {
    return Units.bytesPerSecond(tableGbps(datapath, 1, direction));
  }

  /**
   * A peer of this many cores is past its datapath's knee: kernel WireGuard from {@value #KNEE_CORES} cores (add a
   * peer, not cores; upload stops spreading), userspace from {@value #USERSPACE_KNEE_CORES} (wireguard-go keeps only
   * a few cores busy). The one rule for every knee threshold.
   */
  public static boolean pastKnee(Datapath datapath, double cores) {
    return cores >= (datapath.userspace() ? USERSPACE_KNEE_CORES : KNEE_CORES);
  }

  /** The smallest NIC (Gbps) that does not cap a kernel peer of this many cores, interpolated. */
  public static double interfaceGbps(int onlineCores) {
    return interpolate(KERNEL_CORES, KERNEL_INTERFACE_GBPS, onlineCores);
  }

  /** Cores wireguard-go actually keeps busy at its plateau on a box of this many cores, interpolated. */
  public static double userspaceUsableCores(int onlineCores) {
    return interpolate(USERSPACE_CORES, USERSPACE_CORES_USED, onlineCores);
  }

  /** The highest userspace figure in a direction at MTU 1280 (download 6.8 Gbps, upload 4.4 Gbps), in Gbps. */
  public static double userspacePlateauGbps(Direction direction) {
    return Arrays.stream(USERSPACE_GBPS.get(direction)).max()
        .getAsDouble();
  }

  /** The plateau of a userspace datapath: wireguard-go's, or netstack's share of it; in Gbps at MTU 1280. */
  public static double plateauGbps(Datapath datapath, Direction direction) {
    double g = userspacePlateauGbps(direction);
    return datapath == Datapath.NETSTACK ? g * NETSTACK_SHARE_OF_USERSPACE : g;
  }

  /** Inner (tunnel) bytes/s that fit in a line rate when every packet carries {@code packetBytes} plus 74 bytes. */
  public static double innerLineRate(double lineRateBytesPerSecond, double packetBytes) {
    return lineRateBytesPerSecond * packetBytes / (packetBytes + UNDERLAY_OVERHEAD_BYTES);
  }

  static double interpolate(double[] xs, double[] ys, double x) {
    if (x <= xs[0]) {
      return ys[0];
    }
    int last = xs.length - 1;
    if (x >= xs[last]) {
      return ys[last];
    }
    for (int i = 1; i <= last; i++) {
      if (x <= xs[i]) {
        double t = (x - xs[i - 1]) / (xs[i] - xs[i - 1]);
        return ys[i - 1] + t * (ys[i] - ys[i - 1]);
      }
    }
    return ys[last];
  }
}
