package dev.headroom.sample;

import dev.headroom.config.Config;
import dev.headroom.read.DefaultRoute;
import dev.headroom.read.InterfaceReading;
import dev.headroom.read.NetInterfaceReader;
import dev.headroom.read.ReadException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NIC that carries the tunnel: the configured one, or the holder of the default route (looked up again
 * every ten seconds), with its line rate (configured beats sysfs {@code speed}). Only the sampling thread
 * calls it.
 *
 * <p>Usage: {@code UnderlayState u = new UnderlayCollector(config, new NetInterfaceReader(sys), 10_000_000_000L).collect(now);}
 */
public final class UnderlayCollector {
  static final String SOURCE = "underlay";
  private static final Logger log = LoggerFactory.getLogger(Sampler.class);

  private final Config config;
  private final InterfaceCollector link;
  private final long rediscoverNanos;
  private String name;
  private long resolvedAt;
  private double lineRate;

  public UnderlayCollector(Config config, NetInterfaceReader net, long rediscoverNanos) {
    this.config = config;
    this.rediscoverNanos = rediscoverNanos;
    String initial = config.sampling().underlayInterface().orElse("?");
    this.link = new InterfaceCollector(SOURCE, net, initial, config.sampling().interval().toNanos() / 1e9);
    this.lineRate = config.sampling().underlayLineRate().orElse(Double.NaN);
  }

  public UnderlayState collect(long nowNanos) {
    // The bound comes from the line rate known before this read: config, or the speed read last time.
    double bound = InterfaceTracker.maxBytesPerSecond(lineRate);
    LinkState state;
    try {
      String n = resolve(nowNanos);
      state = n == null
          ? link.missing("none", nowNanos, "no underlay: no default route and --underlay.interface not set")
          : link.collect(n, nowNanos, bound);
    } catch (ReadException e) {
      state = link.missing("none", nowNanos, e.getMessage());
    }
    lineRate = lineRate(state.reading());
    String source = config.sampling().underlayLineRate().isPresent() ? "config"
        : lineRate > 0 ? "sysfs" : "none";
    return new UnderlayState(state, lineRate, source);
  }

  private double lineRate(InterfaceReading r) {
    if (config.sampling().underlayLineRate().isPresent()) {
      return config.sampling().underlayLineRate().getAsDouble();
    }
    return r.speedMbps().isPresent() ? r.speedMbps().getAsLong() * 1e6 / 8 : Double.NaN;
  }

  private String resolve(long now) throws ReadException {
    if (config.sampling().underlayInterface().isPresent()) {
      return config.sampling().underlayInterface().get();
    }
    if (name == null || now - resolvedAt >= rediscoverNanos) {
      String n = DefaultRoute.find(config.paths().procfs()).filter(r -> !r.equals(config.sampling().tunnelInterface()))
          .orElse(null);
      if (name != null && !name.equals(n)) {
        log.info("default route moved from {} to {}", name, n);
        link.forget(n == null ? "none" : n);
      }
      name = n;
      resolvedAt = now;
    }
    return name;
  }
}
