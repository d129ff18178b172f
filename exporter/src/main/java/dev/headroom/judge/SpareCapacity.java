package dev.headroom.judge;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;

/**
 * How much more of each direction the peer can carry now, given what the other direction already costs. The
 * model (docs/verdict.md, "Spare capacity"): where the cores are the limit the two directions share them, so the
 * fractions of the ceilings add ({@code down/ceil_down + up/ceil_up} reaches about 1 at saturation); the share of
 * the CPU in use is that sum, the measured busy share of the usable cores or the datapath's own share of them,
 * whichever is largest; the CPU's spare is what is left of it, in this direction's ceiling. The ceilings are the
 * ones the verdict reads (a {@code cost} ceiling already prices what a packet costs this CPU), so the spare and the
 * utilization beside it never disagree. The spare is also held by the direction's own limit (its
 * ceiling minus its rate: the decrypt knee, the userspace plateau, a NIC-capped ceiling) and by the underlay's room
 * on the side that carries it, less the WireGuard headers. Where both directions at their ceilings would leave
 * cores idle ({@link #fractionsAdd}: kernel peers of about 18 cores or more) the fractions do not add: upload stops
 * spreading over cores while others idle, so there only the measured busy share counts.
 *
 * <p>Pure: numbers in, numbers out; unknown inputs give an unknown (NaN) spare, never a made-up one.
 *
 * <p>Usage: {@code Spare s = SpareCapacity.of(observation, ceilings).get(Direction.DOWNLOAD); s.bytesPerSecond();}
 */
public final class SpareCapacity {
  private SpareCapacity() {}

  /** What holds a direction's spare: the shared CPU, the direction's own ceiling, or the underlay. */
  public enum Bound {
    /** The CPU both directions share: {@code (1 - load) * ceiling}. */
    CPU,
    /** The direction's own ceiling less its rate (knee, plateau, NIC-capped ceiling). */
    CEILING,
    /** The underlay's free line rate on this direction's side, less the WireGuard headers. */
    UNDERLAY,
    /** A rate or ceiling is unknown, or there is no tunnel datapath: nothing is claimed. */
    UNKNOWN;

    private final String label = name().toLowerCase(Locale.ROOT);

    /** The value used in JSON. */
    public String label() {
      return label;
    }
  }

  /**
   * One direction's spare.
   *
   * @param bytesPerSecond more tunnel bytes per second the direction can carry now, {@code >= 0}; NaN when unknown
   * @param load           the share of the shared CPU counted in use (may exceed 1 when the ceilings are
   *                       exceeded); NaN when unknown
   */
  public record Spare(double bytesPerSecond, Bound bound, double load) {
    public static final Spare UNKNOWN = new Spare(Double.NaN, Bound.UNKNOWN, Double.NaN);
  }

  /**
   * The spare of one direction.
   *
   * @param rate          this direction's tunnel rate, bytes/s
   * @param otherRate     the other direction's tunnel rate, bytes/s
   * @param ceiling       this direction's ceiling, bytes/s
   * @param otherCeiling  the other direction's ceiling, bytes/s
   * @param busyShare     busy share of the cores the datapath can use (0..1), other work included; NaN when unknown
   * @param datapathShare the datapath's own CPU over the cores it can use (0..1); NaN when unknown
   * @param fractionsAdd  the directions share the cores (false past the kernel knee)
   * @param underlaySpare inner bytes/s the underlay can still carry on this direction's side; NaN when unknown
   */
  public static Spare spare(double rate, double otherRate, double ceiling, double otherCeiling, double busyShare,
      double datapathShare, boolean fractionsAdd, double underlaySpare) {
    if (!known(rate) || !known(otherRate) || !positive(ceiling) || !positive(otherCeiling)) {
      return Spare.UNKNOWN;
    }
    double own = rate / ceiling;
    double other = otherRate / otherCeiling;
    double sum = own + other;
    // Past the knee each direction has its own limit and the CPU is read from the cores; without a CPU reading
    // the larger fraction is the least the CPU can be carrying.
    double load = fractionsAdd ? sum : Double.isNaN(busyShare) ? Math.max(own, other) : 0;
    if (!Double.isNaN(busyShare)) {
      load = Math.max(load, busyShare);
    }
    if (!Double.isNaN(datapathShare)) {
      load = Math.max(load, datapathShare);
    }
    double cpu = Math.max(0, 1 - load) * ceiling;
    double ownLimit = Math.max(0, ceiling - rate);
    double spare = cpu;
    Bound bound = Bound.CPU;
    if (ownLimit < spare) {
      spare = ownLimit;
      bound = Bound.CEILING;
    }
    if (!Double.isNaN(underlaySpare) && Math.max(0, underlaySpare) < spare) {
      spare = Math.max(0, underlaySpare);
      bound = Bound.UNDERLAY;
    }
    return new Spare(spare, bound, load);
  }

  /**
   * A spare held steady over the last {@link #STEADY_SAMPLES} samples: one second's CPU reading moves with the
   * scheduler (a process's ticks land in one second or the next), the room an operator acts on does not. The bound
   * is the latest sample's. Not thread-safe: one per direction, fed by the sampling thread.
   */
  static final class Steady {
    private final double[] spare = new double[STEADY_SAMPLES];
    private final double[] load = new double[STEADY_SAMPLES];
    private int n;
    private int next;

    /** The CPU is full: no room now, and the window starts over from here. */
    Spare full(Spare s) {
      n = 0;
      return Double.isNaN(s.bytesPerSecond()) ? s : new Spare(0, Bound.CPU, Math.max(1, s.load()));
    }

    Spare add(Spare s) {
      if (Double.isNaN(s.bytesPerSecond())) {
        n = 0; // an unknown spare starts the window over: a mean across it would mix two peers
        return s;
      }
      spare[next] = s.bytesPerSecond();
      load[next] = s.load();
      next = (next + 1) % STEADY_SAMPLES;
      n = Math.min(n + 1, STEADY_SAMPLES);
      double sumSpare = 0;
      double sumLoad = 0;
      for (int i = 0; i < n; i++) {
        int k = (next - 1 - i + STEADY_SAMPLES) % STEADY_SAMPLES;
        sumSpare += spare[k];
        sumLoad += load[k];
      }
      return new Spare(sumSpare / n, s.bound(), sumLoad / n);
    }
  }

  /** Samples a steady spare is taken over: a few seconds at the default interval. */
  static final int STEADY_SAMPLES = 3;

  /** Both directions' spare for a sample judged against these ceilings. */
  public static Map<Direction, Spare> of(Observation o, Map<Direction, Ceiling> ceilings) {
    return Collections.unmodifiableMap(Direction.each(d -> o.datapath() == Datapath.ABSENT ? Spare.UNKNOWN
        : spare(o.throughput(d), o.throughput(d.other()), ceilings.get(d).bytesPerSecond(),
            ceilings.get(d.other()).bytesPerSecond(), busyShare(o), datapathShare(o), fractionsAdd(o),
            underlaySpare(o, d))));
  }

  /**
   * The busy share of the CPU the datapath can use, other work included: all busy cores over the peer's
   * (quota-aware) cores; for a userspace datapath confined to some cores (affinity), those cores' busy share.
   * NaN when unknown.
   */
  static double busyShare(Observation o) {
    if (o.datapath().userspace() && !Double.isNaN(o.datapathAllowedBusy())) {
      return Math.min(1, o.datapathAllowedBusy());
    }
    double peer = Classifier.peerCores(o);
    double total = o.totalBusyCores();
    return Double.isNaN(total) || !(peer > 0) ? Double.NaN : Math.min(1, total / peer);
  }

  /**
   * The datapath's own CPU (the userspace process, or the kernel's softirq and WireGuard threads) over the cores it
   * can keep busy; NaN when unknown.
   */
  static double datapathShare(Observation o) {
    double usable = Classifier.usableCores(o);
    double dp = o.datapathCpuCores();
    return Double.isNaN(dp) || !(usable > 0) ? Double.NaN : Math.min(1, dp / usable);
  }

  /**
   * The directions share the cores while, at both ceilings at once, they would need more cores than the peer has:
   * the reference's shape ({@link ReferenceProfile#effectiveCores}) gives each direction's cores at saturation. A
   * kernel peer of 16 cores needs 10 + 7.5, so they share; at 32 cores 12.5 + 7.5 leaves cores idle, each direction
   * has its own limit. Userspace keeps its few cores in one process: they always share.
   */
  static boolean fractionsAdd(Observation o) {
    if (o.datapath() != Datapath.KERNEL) {
      return true;
    }
    double cores = Classifier.peerCores(o);
    return ReferenceProfile.effectiveCores(Datapath.KERNEL, cores, Direction.DOWNLOAD)
        + ReferenceProfile.effectiveCores(Datapath.KERNEL, cores, Direction.UPLOAD) > cores;
  }

  /** Inner bytes/s the underlay side carrying {@code d} can still take; NaN without line rate or utilization. */
  static double underlaySpare(Observation o, Direction d) {
    double u = o.underlayUtilization(d);
    if (o.lineRate().isEmpty() || Double.isNaN(u)) {
      return Double.NaN;
    }
    return ReferenceProfile.innerLineRate(o.lineRate().getAsDouble() * Math.max(0, 1 - u), o.tunnelMtu());
  }

  private static boolean known(double v) {
    return !Double.isNaN(v) && !Double.isInfinite(v) && v >= 0;
  }

  private static boolean positive(double v) {
    return v > 0 && !Double.isInfinite(v);
  }
}
