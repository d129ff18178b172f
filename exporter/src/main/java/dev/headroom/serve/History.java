package dev.headroom.serve;

import dev.headroom.json.JsonWriter;
import dev.headroom.sample.Core;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The last few minutes of samples for the live page: per-direction tunnel rates and per-core busy with the
 * mode shares of each interval. Written only by the sampling thread (it is a {@code Daemon} listener);
 * HTTP threads read {@link #json(long)} from an immutable list republished after every sample, so neither
 * side ever locks.
 *
 * <p>Usage: {@code History h = new History(Duration.ofMinutes(5), interval); daemon.addListener(h); h.json(-1);}
 */
public final class History implements Consumer<Published> {
  /** How far back the live page looks. */
  public static final Duration SPAN = Duration.ofMinutes(5);

  /** Longest ring kept whatever the interval, so a very short interval cannot grow it without bound. */
  static final int MAX_POINTS = 3600;

  private final int capacity;
  private final Duration span;
  private final Duration interval;
  // Sampling thread only.
  private final ArrayDeque<Point> ring;
  // Written by the sampling thread, read by handlers.
  private volatile List<Point> snapshot = List.of();

  /**
   * One core in one interval. Shares are of the interval's total time: {@code user} counts user and nice,
   * {@code system} counts system and irq, so user + system + softirq + steal = busy. NaN while the core
   * has no previous reading (first sample, just back online) or is offline.
   */
  private record CoreShare(int cpu, double busy, double user, double system, double softirq, double steal) {}

  /** One sample: when, the tunnel rates in bytes per second, and every core. */
  private record Point(long sequence, long wallMillis, boolean complete, double download, double upload,
      List<CoreShare> cores) {}

  /** Keeps {@code span} worth of samples taken every {@code interval} (capped at {@value #MAX_POINTS}). */
  public History(Duration span, Duration interval) {
    if (span.isNegative() || span.isZero() || interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("history span and interval must be positive, got " + span + " and " + interval);
    }
    this.span = span;
    this.interval = interval;
    long n = (span.toNanos() + interval.toNanos() - 1) / interval.toNanos();
    this.capacity = (int) Math.min(MAX_POINTS, Math.max(1, n));
    this.ring = new ArrayDeque<>(capacity);
  }

  /** Records one published sample; call only from the sampling thread. */
  @Override
  public void accept(Published p) {
    Sample s = p.sample();
    List<CoreShare> cores = new ArrayList<>(s.cores().size());
    for (Core c : s.cores()) {
      cores.add(share(c));
    }
    if (ring.size() == capacity) {
      ring.removeFirst();
    }
    ring.addLast(new Point(s.sequence(), s.wallMillis(), s.complete(),
        s.throughput(Direction.DOWNLOAD), s.throughput(Direction.UPLOAD), cores));
    snapshot = List.copyOf(ring);
  }

  /** The sampler already split each core's interval by mode; a core without an interval is unknown here. */
  private static CoreShare share(Core c) {
    if (!c.online()) {
      return new CoreShare(c.cpu(), Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
    return new CoreShare(c.cpu(), c.hasShares() ? c.busy() : Double.NaN, c.user(), c.system(),
        c.softirq(), c.steal());
  }

  /**
   * The history at {@code /api/v1/history}, points after sequence {@code after} (all with -1) so a page
   * can poll for only what is new. Each core is {@code [cpu, busy, user, system, softirq, steal]} as
   * ratios, null when unknown; rates are bytes per second.
   */
  public String json(long after) {
    List<Point> pts = snapshot;
    JsonWriter w = new JsonWriter().object()
        .field("span_seconds", span.toMillis() / 1000.0)
        .field("interval_seconds", interval.toNanos() / 1e9)
        .field("capacity", capacity);
    w.name("core_fields").array();
    for (String f : new String[] {"cpu", "busy", "user", "system", "softirq", "steal"}) {
      w.value(f);
    }
    w.end();
    w.name("points").array();
    for (Point p : pts) {
      if (p.sequence() <= after) {
        continue;
      }
      w.object().field("sequence", p.sequence()).field("timestamp", p.wallMillis() / 1000.0)
          .field("complete", p.complete())
          .field("download_bytes_per_second", round(p.download(), 1))
          .field("upload_bytes_per_second", round(p.upload(), 1));
      w.name("cores").array();
      for (CoreShare c : p.cores()) {
        w.array().value(c.cpu()).value(round(c.busy(), 1000)).value(round(c.user(), 1000))
            .value(round(c.system(), 1000)).value(round(c.softirq(), 1000)).value(round(c.steal(), 1000)).end();
      }
      w.end().end();
    }
    return w.end().end().toString();
  }

  /** Fewer digits keep five minutes of points small; NaN stays NaN (written as null). */
  static double round(double v, double scale) {
    return Double.isFinite(v) ? Math.round(v * scale) / scale : v;
  }
}
