package dev.headroom.judge;

import dev.headroom.sample.Core;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import dev.headroom.read.wg.Connection;
import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.sample.census.Talker;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Builds the judge's input from a sample: the one place the sampling vocabulary meets the judging one.
 *
 * <p>Usage: {@code Observation o = Observations.from(sample, flowCap, jumboPath);}
 */
public final class Observations {
  private Observations() {}

  /**
   * The CPU quota is the sample's own ({@link Sample#cpuQuotaCores}).
   *
   * @param flowCapBytesPerSecond the cloud's single-flow cap, NaN for none
   * @param jumboPathDeclared     the operator says the path carries jumbo frames end to end
   */
  public static Observation from(Sample s, double flowCapBytesPerSecond, boolean jumboPathDeclared) {
    double[] busy = s.cores().stream().filter(Core::online).mapToDouble(Core::busy).toArray();
    Observation.Builder b = Observation.builder(s.datapath(), busy.length)
        .tunnelMtu(s.tunnel().present() ? s.tunnel().mtu() : Observation.DEFAULT_TUNNEL_MTU)
        .underlayMtu(s.underlay().present() ? s.underlay().mtu() : 0)
        // An unmeasured rate stays unknown (NaN): the classifier holds its last verdict rather than read it as idle.
        .throughput(s.throughput(Direction.DOWNLOAD), s.throughput(Direction.UPLOAD))
        .packets(s.packetRate(Direction.DOWNLOAD), s.packetRate(Direction.UPLOAD))
        .underlayUtilization(s.underlayUtilization(Direction.DOWNLOAD), s.underlayUtilization(Direction.UPLOAD))
        .coreBusy(busy)
        .datapathCpuCores(s.datapathCores())
        .cpuQuotaCores(s.cpuQuotaCores())
        .flowCap(flowCapBytesPerSecond)
        .jumboPath(jumboPathDeclared || privateEndpointsOnly(s.census()));
    if (s.lineRateBytesPerSecond() > 0) {
      b.lineRate(s.lineRateBytesPerSecond());
    }
    if (s.census() != null && s.census().hasRates()) {
      b.hottestTunnel(s.census().directions().download().hottestBytesPerSecond(), s.census().directions().upload().hottestBytesPerSecond());
      b.hottestRelayed(s.census().directions().download().hottestConnection() == Connection.RELAYED,
          s.census().directions().upload().hottestConnection() == Connection.RELAYED);
    }
    if (s.datapathAllowedCpus() > 0) {
      b.datapathCpuLimitCores(s.datapathAllowedCpus());
      b.datapathAllowedBusy(s.datapathAllowedBusy());
    }
    return b.build();
  }

  /**
   * Every active tunnel's endpoint is a private address: the users sit in a datacenter or VPC the operator runs,
   * not across the internet. Needs every active tunnel listed (the census lists only the busiest).
   */
  static boolean privateEndpointsOnly(CensusSnapshot c) {
    if (c == null || c.active() == 0) {
      return false;
    }
    List<Talker> active = c.topTalkers().stream().filter(Talker::active).toList();
    return active.size() == c.active() && active.stream().allMatch(t -> isPrivate(t.endpoint()));
  }

  /** RFC 1918 and IPv6 unique-local addresses; {@code endpoint} is {@code ip:port} or {@code [ip6]:port}. */
  static boolean isPrivate(String endpoint) {
    if (endpoint == null || endpoint.isBlank()) {
      return false;
    }
    String host = endpoint.startsWith("[") ? endpoint.substring(1, Math.max(1, endpoint.indexOf(']')))
        : endpoint.contains(":") ? endpoint.substring(0, endpoint.lastIndexOf(':')) : endpoint;
    // A literal only: never a name, which would mean a DNS lookup on the sampling thread.
    if (!host.matches("[0-9.]+|[0-9a-fA-F:]+")) {
      return false;
    }
    try {
      InetAddress a = InetAddress.getByName(host);
      byte[] b = a.getAddress();
      return a.isSiteLocalAddress() || (b.length == 16 && (b[0] & 0xfe) == 0xfc);
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
