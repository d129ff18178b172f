package dev.headroom.sample;

import dev.headroom.read.NetInterfaceReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tunnel interface's counters: totals, rates, restarts and discontinuities, and the tunnel source's
 * health. Only the sampling thread calls it.
 *
 * <p>Usage: {@code LinkState t = new TunnelCollector(new NetInterfaceReader(sys), "wt0", 1.0).collect(now, 1.25e9);}
 */
public final class TunnelCollector {
  static final String SOURCE = "tunnel";
  private static final Logger log = LoggerFactory.getLogger(Sampler.class);

  private final String iface;
  private final InterfaceCollector link;

  /** @param intervalSeconds the sampling interval, the grace for drivers' stale statistics */
  public TunnelCollector(NetInterfaceReader net, String iface, double intervalSeconds) {
    this.iface = iface;
    this.link = new InterfaceCollector(SOURCE, net, iface, intervalSeconds);
  }

  /** One pass; deltas faster than {@code maxBytesPerSecond} (see {@link Plausibility}) are dropped. */
  public LinkState collect(long nowNanos, double maxBytesPerSecond) {
    LinkState s = link.collect(iface, nowNanos, maxBytesPerSecond);
    if (s.restarted()) {
      log.info("tunnel {} restarted (restart #{}); rates continue from its new counters",
          iface, s.traffic().restarts());
    }
    return s;
  }
}
