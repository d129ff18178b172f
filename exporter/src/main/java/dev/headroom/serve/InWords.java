package dev.headroom.serve;

import dev.headroom.judge.AdviceItem;
import dev.headroom.read.Datapath;
import dev.headroom.judge.DirectionJudgement;
import dev.headroom.judge.Judgement;
import dev.headroom.judge.ThisCpu;
import dev.headroom.judge.Units;
import dev.headroom.read.wg.Connection;
import dev.headroom.sample.Core;
import dev.headroom.sample.NetstackCollector;
import dev.headroom.sample.SourceHealth;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.sample.census.Talker;
import java.util.List;
import java.util.Locale;

/**
 * The current reading as plain sentences: the page's "In words" block, the status JSON's {@code words} and the
 * output of {@code headroom check}.
 *
 * <p>Usage: {@code System.out.print(InWords.describe(published, config.cpuSaturation()));}
 */
public final class InWords {
  private InWords() {}

  /** Why talkers carry key prefixes instead of NetBird's names; empty when NetBird's answer names them. */
  static java.util.Optional<String> namesMissing(Published p) {
    if (p.netbird() != null) {
      return p.netbird().transfers().isEmpty()
          ? java.util.Optional.of("NetBird's answer came from its local metrics, which name no devices")
          : java.util.Optional.empty();
    }
    SourceHealth h = p.sample().sources().get(NetstackCollector.SOURCE);
    if (h == null) {
      return java.util.Optional.of("NetBird's status is not read (--netbird.interval 0)");
    }
    return java.util.Optional.of(h.up() || h.lastError().isEmpty() ? "NetBird's status has not answered yet"
        : "NetBird's status is unavailable: " + h.lastError());
  }

  private static String relayedShare(CensusSnapshot c) {
    double total = c.directions().download().totalBytesPerSecond() + c.directions().upload().totalBytesPerSecond();
    double relayed = c.directions().download().bytesPerSecond(Connection.RELAYED) + c.directions().upload().bytesPerSecond(Connection.RELAYED);
    return total > 0 ? Math.round(100 * relayed / total) + " %" : "none";
  }

  public static String describe(Published p, double saturation) {
    if (p == null) {
      return "No sample yet.\n";
    }
    Sample s = p.sample();
    StringBuilder b = new StringBuilder();
    if (!s.tunnelCarried()) {
      b.append("Tunnel ").append(s.tunnel().name())
          .append(" is absent, and NetBird does not answer as connected in netstack mode.\n");
    } else {
      if (s.datapath() == Datapath.NETSTACK) {
        b.append(String.format(Locale.ROOT, "Tunnel: netstack datapath (NetBird, no interface); bytes from NetBird's"
            + " per-peer counters, rates and peaks over %.0f s.%n", s.tunnelResolutionSeconds()));
      } else {
        b.append(String.format(Locale.ROOT, "Tunnel %s: %s datapath, MTU %d.%n", s.tunnel().name(), s.datapath().label(), s.tunnel().mtu()));
      }
      for (Direction d : Direction.values()) {
        if (s.datapath() == Datapath.NETSTACK) { // NetBird reports bytes only, no packets
          b.append(String.format(Locale.ROOT, "  %-8s %7.3f Gbps  (peak %.3f Gbps)%n", d.label(),
              Units.gbps(s.throughput(d)), Units.gbps(s.peak(d))));
          continue;
        }
        b.append(String.format(Locale.ROOT, "  %-8s %7.3f Gbps  (%,.0f packets/s, mean %.0f bytes; peak %.3f Gbps)%n", d.label(),
            Units.gbps(s.throughput(d)), s.packetRate(d), s.meanPacketSize(d), Units.gbps(s.peak(d))));
      }
    }
    if (s.underlay().present()) {
      b.append(String.format(Locale.ROOT, "Underlay %s: ", s.underlay().name()));
      if (s.lineRateBytesPerSecond() > 0) {
        b.append(String.format(Locale.ROOT, "line rate %.3f Gbps (%s); transmit %.0f%%, receive %.0f%% of it.%n",
            Units.gbps(s.lineRateBytesPerSecond()), s.lineRateSource(),
            100 * s.underlayUtilization(Direction.DOWNLOAD), 100 * s.underlayUtilization(Direction.UPLOAD)));
      } else {
        b.append("line rate unknown (set --underlay.line-rate).\n");
      }
    } else {
      b.append("Underlay: not found.\n");
    }
    b.append(String.format(Locale.ROOT, "CPU: %d cores online, %d saturated; busiest:", s.onlineCores(), s.saturatedCores(saturation)));
    s.cores().stream().filter(Core::online)
        .sorted((x, y) -> Double.compare(y.busy(), x.busy())).limit(4)
        .forEach(c -> b.append(String.format(Locale.ROOT, " cpu%d %.0f%%", c.cpu(), 100 * c.busy())));
    b.append('\n');
    if (!Double.isNaN(s.datapathCores())) {
      b.append(String.format(Locale.ROOT, "Datapath CPU: %.2f cores (%s).%n", s.datapathCores(), s.datapathDescription()));
    }
    CensusSnapshot c = s.census();
    if (c != null) {
      b.append(String.format(Locale.ROOT, "Tunnels: %d, %d with a recent handshake, %d active (%d P2P, %d relayed).%n",
          c.tunnels(), c.handshakeRecent(), c.active(), c.active(Connection.P2P), c.active(Connection.RELAYED)));
      if (c.hasRates()) {
        b.append(String.format(Locale.ROOT, "Relayed: down %.3f Gbps, up %.3f Gbps (%s of the tunnels' traffic).%n",
            Units.gbps(c.directions().download().bytesPerSecond(Connection.RELAYED)),
            Units.gbps(c.directions().upload().bytesPerSecond(Connection.RELAYED)), relayedShare(c)));
      }
      for (Talker t : c.topTalkers().stream().limit(5).toList()) {
        b.append(String.format(Locale.ROOT, "  %-28s %-7s %-21s down %.3f Gbps, up %.3f Gbps%n", t.shownName(),
            t.connection().label(), t.endpoint() == null ? "-" : t.endpoint(), Units.gbps(t.downloadBytesPerSecond()),
            Units.gbps(t.uploadBytesPerSecond())));
      }
      if (!c.topTalkers().isEmpty()) {
        namesMissing(p).ifPresent(why -> b.append("  (no names: ").append(why).append(")\n"));
      }
    }
    if (p.netbird() != null) {
      b.append(String.format(Locale.ROOT, "NetBird: %d peers connected (%d P2P, %d relayed).%n", p.netbird().peersConnected(),
          p.netbird().p2p(), p.netbird().relayed()));
    }
    Judgement j = p.judgement();
    if (j != null && !s.tunnelCarried()) {
      b.append("Verdict: ").append(dev.headroom.judge.Verdict.NO_DATAPATH.label()).append(" - ")
          .append(Explainer.NO_DATAPATH_WORDS).append(".\n");
    } else if (j != null) {
      for (Direction d : Direction.values()) {
        DirectionJudgement dj = j.of(d);
        // The basis already starts with its source ("reference: kernel WireGuard, ...").
        b.append(String.format(Locale.ROOT, "%s: %s (%s) at %.0f%% of a %.3f Gbps ceiling (%s). %s; %s.%n",
            LandingPage.cap(d.label()), dj.verdict().label(), dj.cause().label(), 100 * dj.utilization(),
            dj.ceiling().gbps(), Explainer.basis(dj.ceiling()), Explainer.reason(j, d), Explainer.spare(j, d)));
      }
      for (AdviceItem a : j.advice()) {
        b.append("Advice: ").append(a.advice().label()).append(" - ").append(Explainer.advice(j, a)).append('\n');
      }
      sizes(b, ThisCpu.of(j.of(Direction.DOWNLOAD).ceiling().cost(), j.observation()));
    }
    return b.toString();
  }

  /** This CPU against the reference and its size table, in columns; nothing while the cost is not learned. */
  private static void sizes(StringBuilder b, ThisCpu t) {
    if (t.rows().isEmpty()) {
      return;
    }
    b.append(LandingPage.cap(Explainer.thisCpu(t))).append(".\n").append(Explainer.SIZES_WORDS).append(":\n");
    List<String> headings = Explainer.sizeHeadings(t);
    List<List<String>> rows = Explainer.sizeCells(t);
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < headings.size(); i++) {
      line.append(String.format(Locale.ROOT, i == 0 ? "  %5s" : "  %18s", headings.get(i)));
    }
    b.append(line).append('\n');
    boolean capped = false;
    for (List<String> r : rows) {
      line.setLength(0);
      for (int i = 0; i < r.size(); i++) {
        line.append(String.format(Locale.ROOT, i == 0 ? "  %5s" : "  %18s", r.get(i)));
        capped |= r.get(i).endsWith(Explainer.LINK_CAPPED_MARK);
      }
      b.append(line).append('\n');
    }
    if (capped) {
      b.append("  ").append(Explainer.LINK_CAPPED_WORDS).append(".\n");
    }
  }
}
