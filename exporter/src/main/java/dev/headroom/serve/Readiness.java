package dev.headroom.serve;

import dev.headroom.sample.Sample;
import dev.headroom.sample.SourceHealth;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Decides {@code /-/ready}: a complete sample exists, sampling has not stalled, the tunnel is there, and the
 * sources the verdict stands on (tunnel, underlay, CPU) read in the last pass; otherwise the peer is
 * degraded, its rates unknown. The census and the datapath's CPU need privileges many installs do not grant
 * and only refine the verdict: their failures show in {@code headroom_source_up}, not here.
 *
 * <p>Usage: {@code Readiness.State r = readiness.check(published, System.nanoTime());}
 */
public final class Readiness {
  private static final List<String> ESSENTIAL = List.of("tunnel", "underlay", "cpu");

  private final long staleNanos;

  /** Sampling counts as stalled after three missed intervals, and never sooner than five seconds. */
  public Readiness(Duration interval) {
    this.staleNanos = Math.max(3 * interval.toNanos(), Duration.ofSeconds(5).toNanos());
  }

  public record State(boolean ready, String reason) {}

  public State check(Published p, long nowNanos) {
    if (p == null) {
      return new State(false, "no sample yet");
    }
    Sample s = p.sample();
    long age = nowNanos - s.monotonicNanos();
    if (age > staleNanos) {
      return new State(false, String.format(Locale.ROOT, "sampling stalled: last sample %.1f s ago", age / 1e9));
    }
    for (String source : ESSENTIAL) {
      SourceHealth h = s.source(source);
      if (h != null && !h.up()) {
        return new State(false, "degraded: " + source + " cannot be read: " + h.lastError());
      }
    }
    if (!s.tunnelCarried()) {
      return new State(false, "tunnel interface " + s.tunnel().name() + " is absent");
    }
    if (!s.complete()) {
      return new State(false, "waiting for the second sample to derive rates");
    }
    return new State(true, "sampling");
  }
}
