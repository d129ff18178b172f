package dev.headroom.judge;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.util.Locale;
import java.util.Map;

/**
 * What each packet costs this peer, learned from ordinary traffic: the second seed's throughput per CPU second,
 * per direction. Every loaded sample is one equation {@code cpu = fixed + costDown * unitsDown + costUp * unitsUp},
 * where a direction's units are its packets weighted by size ({@link PacketSize#units}: a 1280-byte packet is one
 * unit), {@code cpu} is the busy CPU of the cores the datapath runs on ({@link #cpu}: what runs out when the peer
 * saturates, the datapath's own and the work that moves with it, such as forwarding and the underlay's softirq)
 * and {@code fixed} is that CPU while the tunnel idles (timers, keepalives, other services), learned from idle
 * samples apart from the rest. The two costs are
 * fitted by least squares over an exponentially fading window; where the mix has not varied enough to tell them
 * apart (one direction alone, or both in a fixed proportion) the reference's decrypt/encrypt ratio splits the cost
 * the fit finds. A direction carrying only the other's ACKs ({@link PacketSize#COMPANION_SHARE}) counts as part of
 * that other direction's cost, as the reference measured it.
 *
 * <p>Its ceiling ({@link #ceiling}) is the CPU the datapath can use, less the fixed part, over the cost of one unit,
 * in the packets the direction carries now. It is used only with evidence: {@code after} of loaded samples and a
 * fit whose standard error is at most {@link #MAX_FIT_ERROR}; short of that {@link Estimate#shortfall()} says why.
 *
 * <p>Not thread-safe: fed by the sampling thread; {@link Estimate} is immutable.
 *
 * <p>Usage: {@code model.feed(observation, usableCores, nanos); CostModel.Estimate e = model.estimate(observation);}
 */
public final class CostModel {
  /** A sample teaches the cost when the datapath spent at least this many cores: ten 10 ms ticks a second. */
  public static final double MIN_LOADED_CORES = 0.1;
  /** Both directions under this share of the traffic floor is an idle tunnel, whose CPU is the fixed part. */
  static final double IDLE_SHARE_OF_FLOOR = 0.1;
  /**
   * The largest relative standard error of the cost that is used: the samples' RMS scatter around the fit over the
   * mean CPU it prices, over the square root of the (faded) number of samples.
   */
  public static final double MAX_FIT_ERROR = 0.1;
  /**
   * The two directions' units move together past this (uncentred correlation, squared): their costs cannot be told
   * apart and the reference's ratio splits them.
   */
  static final double MAX_OVERLAP = 0.9;
  /** The window fades with a time constant of this many times {@code after}: minutes at the default. */
  static final double WINDOW_PER_AFTER = 2;
  /** Idle samples fold into the fixed CPU with this weight each. */
  static final double FIXED_WEIGHT = 0.05;

  /** Why a cost ceiling is not used yet. */
  public enum Shortfall {
    /** Used. */
    NONE,
    /** Neither the cores nor the datapath's CPU are measured (or there is no datapath). */
    NO_CPU,
    /** Not enough loaded time yet. */
    LEARNING,
    /** The samples scatter too far around any cost to trust one. */
    SCATTERED;

    private final String label = name().toLowerCase(Locale.ROOT);

    /** The value in JSON. */
    public String label() {
      return label;
    }
  }

  /**
   * The costs as learned now.
   *
   * @param cost            CPU seconds per unit (a 1280-byte packet) per direction; NaN while unknown
   * @param apart           the mix varied enough to fit each direction's cost on its own
   * @param referenceRatio  the reference's upload cost over download cost per unit, at this peer's cores
   * @param fixedCores      the datapath's CPU at idle, cores
   * @param seconds         loaded seconds of evidence so far
   * @param neededSeconds   loaded seconds needed before the cost is used
   * @param fitError        RMS scatter of the samples around the fit over their mean CPU; NaN while unknown
   * @param meanCores       the datapath's mean CPU over the window, cores
   * @param meanRate        the mean rate per direction over the window, bytes/s: the load it was learned at
   */
  public record Estimate(Shortfall shortfall, Map<Direction, Double> cost, boolean apart, double referenceRatio,
      double fixedCores, double seconds, double neededSeconds, double fitError, double meanCores,
      Map<Direction, Double> meanRate) {
    public static final Estimate NONE = new Estimate(Shortfall.NO_CPU, Map.of(), false, Double.NaN, 0, 0, 0,
        Double.NaN, Double.NaN, Map.of());

    public Estimate {
      cost = Map.copyOf(cost);
      meanRate = Map.copyOf(meanRate);
    }

    /** The cost is learned well enough to give a ceiling. */
    public boolean usable() {
      return shortfall == Shortfall.NONE;
    }

    /** CPU seconds per unit in a direction; NaN while unknown. */
    public double cost(Direction d) {
      return cost.getOrDefault(d, Double.NaN);
    }

    /** The learned decrypt (upload) over encrypt (download) cost; NaN while unknown. */
    public double ratio() {
      return cost(Direction.UPLOAD) / cost(Direction.DOWNLOAD);
    }
  }

  /**
   * The model's running sums, as kept in the state file: weights, units per direction (d, u), CPU (y), bytes.
   */
  public record Sums(double w, double dd, double du, double uu, double yd, double yu, double yy, double y, double d,
      double u, double bytesDown, double bytesUp, double seconds, double fixedCores) {
    public static final Sums EMPTY = new Sums(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    public Sums {
      for (double v : new double[] {w, dd, uu, yy, y, seconds, fixedCores}) {
        if (!(v >= 0) || Double.isInfinite(v)) {
          throw new IllegalArgumentException("cost sums must be finite and >= 0, got " + v);
        }
      }
    }

    Sums fade(double k) {
      return new Sums(w * k, dd * k, du * k, uu * k, yd * k, yu * k, yy * k, y * k, d * k, u * k, bytesDown * k,
          bytesUp * k, seconds, fixedCores);
    }
  }

  private final long afterNanos;
  private final double windowSeconds;
  private Sums sums = Sums.EMPTY;
  private long lastNanos = -1;

  /** @param after loaded time needed before the cost is used (the window fades over {@value #WINDOW_PER_AFTER} times it) */
  public CostModel(java.time.Duration after, Sums restored) {
    this.afterNanos = after.toNanos();
    this.windowSeconds = Math.max(1, WINDOW_PER_AFTER * after.toNanos() / 1e9);
    if (restored != null) {
      sums = restored;
    }
  }

  /** Forgets everything (the peer's shape changed). */
  public void reset() {
    sums = Sums.EMPTY;
    lastNanos = -1;
  }

  /** What the state file keeps. */
  public Sums sums() {
    return sums;
  }

  /**
   * One sample. Loaded samples (the datapath at least {@link #MIN_LOADED_CORES}, traffic above {@code floor})
   * teach the costs; idle ones (both directions below {@code floor}) the fixed CPU; others nothing.
   *
   * @param floor the traffic floor, bytes/s, below which a direction idles
   */
  public void feed(Observation o, double floor, long nanos) {
    double cpu = cpu(o);
    double down = o.throughput(Direction.DOWNLOAD);
    double up = o.throughput(Direction.UPLOAD);
    long dtNanos = lastNanos < 0 ? 0 : Math.max(0, nanos - lastNanos);
    lastNanos = nanos;
    if (o.datapath() == Datapath.ABSENT || Double.isNaN(cpu) || Double.isNaN(down) || Double.isNaN(up)) {
      return;
    }
    // Idle is next to nothing: a second that merely dips below the floor between bursts still spends the burst's CPU.
    if (down < IDLE_SHARE_OF_FLOOR * floor && up < IDLE_SHARE_OF_FLOOR * floor) {
      double f = sums.fixedCores() + FIXED_WEIGHT * (cpu - sums.fixedCores());
      sums = new Sums(sums.w(), sums.dd(), sums.du(), sums.uu(), sums.yd(), sums.yu(), sums.yy(), sums.y(), sums.d(),
          sums.u(), sums.bytesDown(), sums.bytesUp(), sums.seconds(), Math.max(0, f));
      return;
    }
    if (down < floor && up < floor) {
      return; // neither idle nor loaded: no evidence either way
    }
    double xd = units(o, Direction.DOWNLOAD);
    double xu = units(o, Direction.UPLOAD);
    double working = Double.isNaN(o.datapathCpuCores()) ? cpu - sums.fixedCores() : o.datapathCpuCores();
    if (working < MIN_LOADED_CORES || Double.isNaN(xd) || Double.isNaN(xu) || xd + xu <= 0) {
      return;
    }
    // A first sample after a long gap counts as one interval, not the gap.
    double dt = dtNanos / 1e9;
    double step = dt > 0 && dt < 10 ? dt : 1;
    Sums s = sums.fade(Math.exp(-step / windowSeconds));
    sums = new Sums(s.w() + 1, s.dd() + xd * xd, s.du() + xd * xu, s.uu() + xu * xu, s.yd() + cpu * xd,
        s.yu() + cpu * xu, s.yy() + cpu * cpu, s.y() + cpu, s.d() + xd, s.u() + xu, s.bytesDown() + down,
        s.bytesUp() + up, Math.min(s.seconds() + step, 1e9), s.fixedCores());
  }

  /**
   * The busy CPU of the cores the datapath runs on, other work on them included, in cores: the cores a userspace
   * datapath may run on (its affinity), else every core the peer has; the datapath's own CPU where the cores were
   * not read. NaN when neither is known.
   */
  static double cpu(Observation o) {
    if (o.datapath().userspace() && !Double.isNaN(o.datapathAllowedBusy()) && o.datapathCpuLimitCores() > 0) {
      return o.datapathAllowedBusy() * o.datapathCpuLimitCores();
    }
    double busy = o.totalBusyCores();
    return Double.isNaN(busy) ? o.datapathCpuCores() : Math.min(busy, Classifier.peerCores(o));
  }

  /**
   * A direction's units per second: its packets weighted by their size; 0 for the companion of the other
   * direction (its cost is counted there); NaN when its packets are unknown.
   */
  static double units(Observation o, Direction d) {
    double total = o.totalThroughput();
    if (!(total > 0) || o.throughput(d) / total < PacketSize.COMPANION_SHARE) {
      return 0;
    }
    double packets = o.packetRate(d);
    if (Double.isNaN(packets) && o.datapath() == Datapath.NETSTACK) {
      // Netstack's counters (NetBird's per-peer bytes) count no packets: full packets of the tunnel MTU, as a
      // ceiling reads them ({@link Observation#carriedPacketBytes}). Elsewhere unknown packets teach nothing.
      return o.throughput(d) / o.tunnelMtu() * PacketSize.units(o.datapath(), d, o.tunnelMtu());
    }
    if (!(packets > 0)) {
      return Double.NaN;
    }
    return packets * PacketSize.units(o.datapath(), d, o.throughput(d) / packets);
  }

  /** The costs learned so far, judged against the evidence they need. */
  public Estimate estimate(Observation o) {
    if (o.datapath() == Datapath.ABSENT || Double.isNaN(cpu(o))) {
      return Estimate.NONE;
    }
    double ratio = referenceRatio(o);
    Sums s = sums;
    double needed = afterNanos / 1e9;
    if (s.w() <= 0) {
      return new Estimate(Shortfall.LEARNING, Map.of(), false, ratio, s.fixedCores(), s.seconds(), needed,
          Double.NaN, Double.NaN, Map.of());
    }
    double c0 = s.fixedCores();
    // The sums with the fixed CPU taken off each sample's: y' = y - c0.
    double yd = s.yd() - c0 * s.d();
    double yu = s.yu() - c0 * s.u();
    double yy = s.yy() - 2 * c0 * s.y() + c0 * c0 * s.w();
    double a;
    double b;
    boolean apart = false;
    double det = s.dd() * s.uu() - s.du() * s.du();
    if (s.dd() > 0 && s.uu() > 0 && s.du() * s.du() <= MAX_OVERLAP * s.dd() * s.uu() && det > 0) {
      a = (yd * s.uu() - yu * s.du()) / det;
      b = (yu * s.dd() - yd * s.du()) / det;
      apart = a > 0 && b > 0;
    } else {
      a = Double.NaN;
      b = Double.NaN;
    }
    if (!apart) {
      // One combined unit, the upload's weighted by the reference's ratio: z = d + ratio * u. Its cost is the
      // window's CPU over its units (throughput per CPU second), which a second's CPU landing in the next second
      // does not bias the way it biases a slope.
      double z = s.d() + ratio * s.u();
      a = z > 0 ? (s.y() - c0 * s.w()) / z : Double.NaN;
      b = ratio * a;
    }
    double rss = yy - 2 * (a * yd + b * yu) + a * a * s.dd() + 2 * a * b * s.du() + b * b * s.uu();
    double meanCores = s.y() / s.w();
    // The cost's relative standard error: one second's scatter around the fit, over the samples behind it.
    double fitError = Math.sqrt(Math.max(0, rss) / s.w()) / Math.max(1e-9, meanCores - c0) / Math.sqrt(s.w());
    Map<Direction, Double> cost = a > 0 && b > 0 ? Map.of(Direction.DOWNLOAD, a, Direction.UPLOAD, b) : Map.of();
    Map<Direction, Double> rate = Map.of(Direction.DOWNLOAD, s.bytesDown() / s.w(), Direction.UPLOAD,
        s.bytesUp() / s.w());
    Shortfall why = cost.isEmpty() || s.seconds() < needed ? Shortfall.LEARNING
        : fitError > MAX_FIT_ERROR ? Shortfall.SCATTERED : Shortfall.NONE;
    return new Estimate(why, cost, apart, ratio, c0, s.seconds(), needed, fitError, meanCores, rate);
  }

  /**
   * The reference's upload cost over download cost per unit: its one-core rows' download over upload. Per core, as
   * the cost is; how each direction spreads over more cores is the shape's ({@link ReferenceProfile#effectiveCores}).
   */
  static double referenceRatio(Observation o) {
    return ReferenceProfile.perCoreBytes(o.datapath(), Direction.DOWNLOAD)
        / ReferenceProfile.perCoreBytes(o.datapath(), Direction.UPLOAD);
  }

  /**
   * The cores' worth of work a direction's datapath does at saturation: the reference's shape at the peer's cores
   * ({@link ReferenceProfile#effectiveCores}: the level is this peer's cost, the bend past a few cores the
   * reference's), no more than a userspace datapath's CPU limit (its affinity or quota), and no more than the CPU
   * the model measures less what stays busy at idle: other work runs on the cores the datapath leaves idle, until
   * there are none.
   */
  static double ceilingCores(Estimate e, Observation o, Direction d) {
    double shape = ReferenceProfile.effectiveCores(o.datapath(), Classifier.peerCores(o), d);
    double measured = Classifier.peerCores(o);
    if (o.datapath().userspace() && o.datapathCpuLimitCores() > 0) {
      shape = Math.min(shape, o.datapathCpuLimitCores());
      measured = Double.isNaN(o.datapathAllowedBusy()) ? measured : o.datapathCpuLimitCores();
    }
    return Math.min(shape, measured - e.fixedCores());
  }

  /**
   * The ceiling the cost gives a direction now, in bytes/s at the packets it carries ({@link
   * Observation#carriedPacketBytes}); NaN when the estimate is not usable or leaves no CPU.
   */
  public static double ceiling(Estimate e, Observation o, Direction d) {
    if (!e.usable()) {
      return Double.NaN;
    }
    double cpu = ceilingCores(e, o, d);
    double cost = e.cost(d);
    if (!(cpu > 0) || !(cost > 0)) {
      return Double.NaN;
    }
    double packet = o.carriedPacketBytes(d);
    return cpu / cost * PacketSize.bytesPerUnit(o.datapath(), d, packet);
  }

  /**
   * How fast this CPU does the datapath's work in a direction against one core of the reference box (its one-core
   * row): 1 is the reference's Xeon 8375C, 0.5 a CPU that spends twice its time on each packet; NaN while the cost
   * is not usable.
   */
  public static double speed(Estimate e, Datapath datapath, Direction d) {
    double cost = e.cost(d);
    return e.usable() && cost > 0
        ? PacketSize.bytesPerUnit(datapath, d, ReferenceProfile.BASE_MTU) / cost
            / ReferenceProfile.perCoreBytes(datapath, d)
        : Double.NaN;
  }
}
