package dev.headroom.judge;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import dev.headroom.sample.PerDirection;
import java.util.ArrayList;
import java.util.List;

/**
 * This peer's CPU against the reference box, and what a peer of this CPU carries at the guide's sizes: the level
 * from the cost this peer learned ({@link CostModel}), the shape across cores from the reference
 * ({@link ReferenceProfile#effectiveCores}), within this peer's NIC line rate, at the packets each direction carries
 * now. A userspace or netstack peer also reads what kernel WireGuard would carry on the same CPU, assuming a CPU that
 * is k times the reference's at wireguard-go's work is k times it at the kernel's.
 *
 * <p>Pure and immutable; worked out when asked (a page, the status, {@code check}), not every sample.
 *
 * <p>Usage: {@code ThisCpu t = ThisCpu.of(estimate, observation); t.speed(Direction.DOWNLOAD); t.rows();}
 *
 * @param speed    per direction, this CPU's work per core over the reference's one core; NaN while unknown
 * @param evidence the cost estimate the figures rest on (loaded seconds, fit error, directions told apart)
 * @param rows     per datapath (this peer's first, then kernel for a userspace one) and guide size, the ceilings;
 *                 empty while the cost is not usable
 */
public record ThisCpu(PerDirection<Double> speed, CostModel.Estimate evidence, List<Size> rows) {
  /** The guide's sizes, in vCPUs. */
  public static final int[] GUIDE_SIZES = {1, 2, 4, 8, 16, 32, 64};

  public ThisCpu {
    rows = List.copyOf(rows);
  }

  /**
   * A peer of {@code cores} cores of this CPU on {@code datapath}.
   *
   * @param bytesPerSecond the ceiling per direction at the packets it carries now
   * @param linkCapped     per direction, this peer's NIC line rate holds it below what the CPU carries
   */
  public record Size(Datapath datapath, int cores, PerDirection<Double> bytesPerSecond,
      PerDirection<Boolean> linkCapped) {}

  /** The figures, or unknown speeds and no rows while the cost is not usable or there is no datapath. */
  public static ThisCpu of(CostModel.Estimate e, Observation o) {
    Datapath dp = o.datapath();
    PerDirection<Double> speed = speeds(e, o);
    List<Size> rows = new ArrayList<>();
    if (known(speed)) {
      for (Datapath target : dp.userspace() ? List.of(dp, Datapath.KERNEL) : List.of(dp)) {
        for (int cores : GUIDE_SIZES) {
          rows.add(size(e, o, speed, target, cores));
        }
      }
    }
    return new ThisCpu(speed, e, rows);
  }

  /**
   * A peer of {@code cores} cores of this CPU on {@code target}, at a size the guide may have no row for (this peer's
   * own, or one asked for by {@code size}); null while the cost is not usable.
   */
  public static Size at(CostModel.Estimate e, Observation o, Datapath target, int cores) {
    PerDirection<Double> speed = speeds(e, o);
    return known(speed) ? size(e, o, speed, target, cores) : null;
  }

  private static PerDirection<Double> speeds(CostModel.Estimate e, Observation o) {
    return PerDirection.of(d -> o.datapath() == Datapath.ABSENT ? Double.NaN : CostModel.speed(e, o.datapath(), d));
  }

  private static boolean known(PerDirection<Double> speed) {
    return !Double.isNaN(speed.download()) && !Double.isNaN(speed.upload());
  }

  /** The ceiling of a peer of {@code cores} cores of this CPU on {@code target}; see the type's description. */
  static Size size(CostModel.Estimate e, Observation o, PerDirection<Double> speed, Datapath target, int cores) {
    PerDirection<Double> cpu = PerDirection.of(d -> {
      double effective = Math.min(ReferenceProfile.effectiveCores(target, cores, d), cores - e.fixedCores());
      double unitsPerCore = speed.get(d) * ReferenceProfile.perCoreBytes(target, d)
          / PacketSize.bytesPerUnit(target, d, ReferenceProfile.BASE_MTU);
      return Math.max(0, effective) * unitsPerCore * PacketSize.bytesPerUnit(target, d, o.carriedPacketBytes(d));
    });
    PerDirection<Double> line = PerDirection.of(d -> o.lineRate().isPresent()
        ? ReferenceProfile.innerLineRate(o.lineRate().getAsDouble(), o.carriedPacketBytes(d))
        : Double.POSITIVE_INFINITY);
    return new Size(target, cores, PerDirection.of(d -> Math.min(cpu.get(d), line.get(d))),
        PerDirection.of(d -> line.get(d) < cpu.get(d)));
  }

  /** The row for a datapath and size; null when there is none. */
  public Size row(Datapath datapath, int cores) {
    return rows.stream().filter(r -> r.datapath() == datapath && r.cores() == cores).findFirst().orElse(null);
  }
}
