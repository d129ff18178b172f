package dev.headroom.sample;

import dev.headroom.read.InterfaceReading;
import dev.headroom.read.NetInterfaceReader;
import dev.headroom.read.ReadException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one interface each pass and keeps its totals, rates and health: the tunnel's, and the NIC the
 * {@link UnderlayCollector} picks. A failed read leaves the rates unknown; an interface that vanishes is
 * logged once, and once again when it is back; the first delta dropped as too fast is logged, the rest counted.
 *
 * <p>Usage: {@code LinkState s = new InterfaceCollector("tunnel", reader, "wt0", 1.0).collect("wt0", nowNanos, 1.25e9);}
 */
final class InterfaceCollector {
  private static final Logger log = LoggerFactory.getLogger(Sampler.class);

  private final String source;
  private final NetInterfaceReader net;
  private final InterfaceTracker tracker;
  private final SourceHealthTracker health;
  private InterfaceReading last;
  /** The interface was present at some point, so its return is news worth a line. */
  private boolean seen;
  /** A dropped delta was logged: the counter counts the rest. */
  private boolean toldTooFast;

  InterfaceCollector(String source, NetInterfaceReader net, String initialName, double intervalSeconds) {
    this.source = source;
    this.tracker = new InterfaceTracker(intervalSeconds);
    this.net = net;
    this.health = new SourceHealthTracker(source);
    this.last = InterfaceReading.absent(initialName);
  }

  /** Reads {@code name}; deltas faster than {@code maxBytesPerSecond} are dropped (see {@link InterfaceTracker}). */
  LinkState collect(String name, long nowNanos, double maxBytesPerSecond) {
    boolean restarted = false;
    try {
      InterfaceReading r = net.read(name, nowNanos);
      restarted = tracker.update(r, nowNanos, maxBytesPerSecond);
      if (last.present() && !r.present()) {
        log.warn("{} interface {} vanished; rates are 0 until it is back", source, name);
      } else if (!last.present() && r.present() && seen) {
        log.info("{} interface {} is back (ifindex {})", source, name, r.ifindex());
      }
      seen |= r.present();
      last = r;
      health.ok();
    } catch (ReadException e) {
      tracker.unreadable();
      health.failed(e.getMessage());
    }
    Traffic traffic = tracker.snapshot();
    if (!toldTooFast && traffic.tooFast() > 0) {
      // Most often a configured line rate below the port's: every busy interval is then lost, in serve and profile.
      log.warn("{} interface {} counted faster than twice {} Gbit/s in an interval: dropped as a broken counter's,"
          + " not traffic, and counted as too_fast; if the port is faster, set --underlay.line-rate to its rate",
          source, name, String.format(java.util.Locale.ROOT, "%.1f", maxBytesPerSecond * 8 / 1e9));
      toldTooFast = true;
    }
    return new LinkState(last, traffic, restarted, health.snapshot());
  }

  /** There is no interface to read ({@code why} says why): rates are 0 as for an absent one, the source down. */
  LinkState missing(String label, long nowNanos, String why) {
    last = InterfaceReading.absent(label);
    tracker.update(last, nowNanos, 0);
    health.failed(why);
    return new LinkState(last, tracker.snapshot(), false, health.snapshot());
  }

  /** The next reading only sets a baseline: the interface is another NIC now, its counters unrelated. */
  void forget(String newName) {
    tracker.forget();
    last = InterfaceReading.absent(newName);
    seen = false;
  }
}
