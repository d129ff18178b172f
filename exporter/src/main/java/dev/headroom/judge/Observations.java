package dev.headroom.judge;

import dev.headroom.sample.Core;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;

/**
 * Builds the judge's input from a sample: the one place the sampling vocabulary meets the judging one.
 *
 * <p>Usage: {@code Judgement j = classifier.observe(Observations.from(sample));}
 */
public final class Observations {
  private Observations() {}

  public static Observation from(Sample s) {
    double[] busy = s.cores().stream().filter(Core::online).mapToDouble(Core::busy).toArray();
    Observation.Builder b = Observation.builder(s.datapath(), busy.length)
        .tunnelMtu(s.tunnel().present() ? s.tunnel().mtu() : Observation.DEFAULT_TUNNEL_MTU)
        .underlayMtu(s.underlay().present() ? s.underlay().mtu() : 0)
        .throughput(known(s.throughput(Direction.DOWNLOAD)), known(s.throughput(Direction.UPLOAD)))
        .underlayUtilization(s.underlayUtilization(Direction.DOWNLOAD), s.underlayUtilization(Direction.UPLOAD))
        .coreBusy(busy)
        .datapathCpuCores(s.datapathCores());
    if (s.lineRateBytesPerSecond() > 0) {
      b.lineRate(s.lineRateBytesPerSecond());
    }
    if (s.census() != null && s.census().hasRates()) {
      b.hottestTunnel(s.census().download().hottestBytesPerSecond(), s.census().upload().hottestBytesPerSecond());
    }
    if (s.datapathAllowedCpus() > 0) {
      b.datapathCpuLimitCores(s.datapathAllowedCpus());
      b.datapathAllowedBusy(s.datapathAllowedBusy());
    }
    return b.build();
  }

  /**
   * A throughput the sampler could not measure (tunnel unreadable, a counter dropped as implausible) is NaN;
   * the judge takes rates as known, so it sees none moved. /-/ready and headroom_source_up say why.
   */
  private static double known(double rate) {
    return Double.isNaN(rate) ? 0 : rate;
  }
}
