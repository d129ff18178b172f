package dev.headroom.judge;

import static dev.headroom.judge.Units.num;
import static dev.headroom.judge.Units.pct;

import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Supplier;

/**
 * The pure part of {@code headroom profile}: fed one sample per interval while load is added, it tracks each
 * direction's plateau, prints progress, and decides what limited each direction (link when the matching underlay
 * side was near line rate on the plateau, CPU when a core was saturated there, else unknown).
 *
 * <p>Usage:
 * <pre>{@code
 * ProfileSession s = new ProfileSession(Datapath.KERNEL, 16, 1280);
 * s.add(new ProfileSession.Interval(t, down, up, coreBusy, txUtil, rxUtil)); out.println(s.progressLine());
 * s.toProfile(Instant.now()).ifPresent(p -> ProfileFile.write(path, p));
 * }</pre>
 */
public final class ProfileSession {
  /** Underlay utilization on the plateau that names the link as the limit. */
  public static final double LINK_LIMIT = 0.90;
  /** Busy ratio of the hottest core on the plateau that names the CPU as the limit. */
  public static final double CPU_LIMIT = 0.90;
  /** A direction whose best window stayed below this was not loaded, so not measured (1,000,000 B/s). */
  public static final double FLOOR_BYTES_PER_SECOND = 1_000_000;

  /**
   * One sampling interval of the peer under load: its rates, per-core busy ratios and underlay use (named apart
   * from {@link dev.headroom.sample.Sample}, the whole sampler reading it is taken from).
   *
   * @param seconds  monotonic time
   * @param coreBusy busy ratio per online core (copied)
   * @param underlayTransmitUtilization NaN when unknown
   * @param underlayReceiveUtilization  NaN when unknown
   */
  public record Interval(double seconds, double downloadBytesPerSecond, double uploadBytesPerSecond, double[] coreBusy,
      double underlayTransmitUtilization, double underlayReceiveUtilization) {
    public Interval {
      coreBusy = coreBusy == null ? new double[0] : coreBusy.clone();
    }

    @Override
    public double[] coreBusy() {
      return coreBusy.clone();
    }

    double rate(Direction d) {
      return d == Direction.DOWNLOAD ? downloadBytesPerSecond : uploadBytesPerSecond;
    }

    double util(Direction d) {
      return d == Direction.DOWNLOAD ? underlayTransmitUtilization : underlayReceiveUtilization;
    }

    double hottest() {
      return Arrays.stream(coreBusy).max().orElse(Double.NaN);
    }
  }

  /**
   * The outcome for one direction.
   *
   * @param measured       a plateau was found (the ceiling is the plateau's mean)
   * @param bytesPerSecond the plateau, or without one the best window mean (a lower bound), 0 when unloaded
   * @param limit          what stopped it rising
   * @param summary        one line in words
   */
  public record DirectionResult(Direction direction, boolean measured, double bytesPerSecond, Limit limit,
      String summary) {}

  private final Datapath datapath;
  private final int cores;
  private final int tunnelMtu;
  private final Map<Direction, PlateauDetector> detectors = new EnumMap<>(Direction.class);
  private final List<Interval> samples = new ArrayList<>();

  public ProfileSession(Datapath datapath, int cores, int tunnelMtu) {
    this(datapath, cores, tunnelMtu, PlateauDetector::defaults);
  }

  public ProfileSession(Datapath datapath, int cores, int tunnelMtu,
      Supplier<PlateauDetector> detectorFactory) {
    this.datapath = Objects.requireNonNull(datapath, "datapath");
    if (datapath == Datapath.ABSENT) {
      throw new IllegalArgumentException("no tunnel datapath to profile (is NetBird up?)");
    }
    this.cores = cores;
    this.tunnelMtu = tunnelMtu;
    for (Direction d : Direction.values()) {
      detectors.put(d, detectorFactory.get());
    }
  }

  public void add(Interval s) {
    for (Direction d : Direction.values()) {
      detectors.get(d).add(s.seconds(), s.rate(d));
    }
    samples.add(s);
  }

  /** True once every loaded direction has plateaued (and at least one was loaded). */
  public boolean done() {
    boolean any = false;
    for (Direction d : Direction.values()) {
      PlateauDetector p = detectors.get(d);
      if (p.bestWindowMean() >= FLOOR_BYTES_PER_SECOND) {
        any = true;
        if (p.plateau().isEmpty()) {
          return false;
        }
      }
    }
    return any;
  }

  /** e.g. {@code 42s  download 5.21 Gbps (peak 5.4, plateau 5.3)  upload 0.1 Gbps (peak 0.12)  busiest cores 98% 97% 40%  underlay tx 52% rx 3%} */
  public String progressLine() {
    if (samples.isEmpty()) {
      return "waiting for the first sample";
    }
    Interval s = samples.get(samples.size() - 1);
    StringBuilder b = new StringBuilder();
    b.append(num(s.seconds(), 0)).append('s');
    for (Direction d : Direction.values()) {
      PlateauDetector p = detectors.get(d);
      b.append("  ").append(d.label()).append(' ').append(num(Units.gbps(s.rate(d)), 2)).append(" Gbps (peak ")
          .append(num(Units.gbps(p.peak()), 2));
      p.plateau().ifPresent(x -> b.append(", plateau ").append(num(Units.gbps(x.bytesPerSecond()), 2)));
      b.append(')');
    }
    double[] busy = s.coreBusy();
    Arrays.sort(busy);
    b.append("  busiest cores");
    if (busy.length == 0) {
      b.append(" unknown");
    }
    for (int i = busy.length - 1; i >= Math.max(0, busy.length - 3); i--) {
      b.append(' ').append(pct(busy[i]));
    }
    b.append("  underlay tx ").append(utilText(s.underlayTransmitUtilization()))
        .append(" rx ").append(utilText(s.underlayReceiveUtilization()));
    return b.toString();
  }

  private static String utilText(double u) {
    return Double.isNaN(u) ? "?" : pct(u);
  }

  /** The outcome so far for a direction. */
  public DirectionResult result(Direction d) {
    PlateauDetector p = detectors.get(d);
    Optional<PlateauDetector.Plateau> plateau = p.plateau();
    if (p.bestWindowMean() < FLOOR_BYTES_PER_SECOND) {
      return new DirectionResult(d, false, 0, Limit.UNKNOWN, d.label() + ": not loaded, not measured");
    }
    if (plateau.isEmpty()) {
      return new DirectionResult(d, false, p.bestWindowMean(), Limit.UNKNOWN, d.label()
          + ": no plateau, still rising at " + num(Units.gbps(p.bestWindowMean()), 2)
          + " Gbps; add more load (more iperf3 clients or streams) and run longer");
    }
    double since = plateau.get().sinceSeconds();
    List<Interval> on = samples.stream().filter(s -> s.seconds() > since).toList();
    double util = mean(on.stream().mapToDouble(s -> s.util(d)).toArray());
    double hot = mean(on.stream().mapToDouble(Interval::hottest).toArray());
    Limit limit = util >= LINK_LIMIT ? Limit.LINK : hot >= CPU_LIMIT ? Limit.CPU : Limit.UNKNOWN;
    String why = switch (limit) {
      case LINK -> "underlay " + (d == Direction.DOWNLOAD ? "transmit" : "receive") + " at " + pct(util);
      case CPU -> "busiest core at " + pct(hot);
      case UNKNOWN -> "neither a core (" + (Double.isNaN(hot) ? "?" : pct(hot)) + ") nor the underlay ("
          + utilText(util) + ") was full: the load generator or the far side may be the limit";
    };
    return new DirectionResult(d, true, plateau.get().bytesPerSecond(), limit, d.label() + ": plateau at "
        + num(Units.gbps(plateau.get().bytesPerSecond()), 2) + " Gbps, limited by " + limit.label() + " (" + why
        + "); " + datapath.label() + " datapath, " + cores + " cores, MTU " + tunnelMtu);
  }

  /** The profile to write: the plateaued directions; empty when none plateaued. */
  public Optional<MeasuredProfile> toProfile(Instant measuredAt) {
    DirectionResult down = result(Direction.DOWNLOAD);
    DirectionResult up = result(Direction.UPLOAD);
    if (!down.measured() && !up.measured()) {
      return Optional.empty();
    }
    return Optional.of(new MeasuredProfile(
        down.measured() ? OptionalDouble.of(down.bytesPerSecond()) : OptionalDouble.empty(), down.limit(),
        up.measured() ? OptionalDouble.of(up.bytesPerSecond()) : OptionalDouble.empty(), up.limit(),
        cores, datapath, tunnelMtu, measuredAt));
  }

  private static double mean(double[] v) {
    return Arrays.stream(v).filter(x -> !Double.isNaN(x)).average().orElse(Double.NaN);
  }
}
