package dev.headroom.serve;

import dev.headroom.judge.AdviceItem;
import dev.headroom.judge.DirectionJudgement;
import dev.headroom.judge.Judgement;
import dev.headroom.sample.Core;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;

/**
 * The page at {@code /}: links, and the current reading in words.
 *
 * <p>Usage: {@code String html = LandingPage.render(published, info, "/metrics");}
 */
public final class LandingPage {
  private LandingPage() {}

  public static String render(Published p, HeadroomCollector.ExporterInfo info, String telemetryPath) {
    StringBuilder b = new StringBuilder(2048);
    b.append("<!doctype html><html><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">")
        .append("<title>headroom</title></head><body><h1>headroom</h1>")
        .append("<p>WireGuard routing peer headroom exporter, version ").append(esc(info.version())).append(".</p>")
        .append("<ul><li><a href=\"").append(esc(telemetryPath)).append("\">Metrics</a></li>")
        .append("<li><a href=\"/api/v1/status\">Status (JSON)</a></li>")
        .append("<li><a href=\"/-/ready\">Readiness</a></li></ul>")
        .append("<h2>Now</h2><pre>").append(esc(Reading.describe(p, info.saturation())))
        .append("</pre></body></html>\n");
    return b.toString();
  }

  private static String cap(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  /** The current reading as plain sentences, shared by the page and {@code check}. */
  public static final class Reading {
    private Reading() {}

    public static String describe(Published p, double saturation) {
      if (p == null) {
        return "No sample yet.\n";
      }
      Sample s = p.sample();
      StringBuilder b = new StringBuilder();
      if (!s.tunnel().present()) {
        b.append("Tunnel ").append(s.tunnel().name()).append(" is absent (NetBird down, or netstack mode).\n");
      } else {
        b.append(String.format("Tunnel %s: %s datapath, MTU %d.%n", s.tunnel().name(), s.datapath().label(), s.tunnel().mtu()));
        for (Direction d : Direction.values()) {
          b.append(String.format("  %-8s %7.3f Gbps  (%,.0f packets/s, mean %.0f bytes; peak %.3f Gbps)%n", d.label(),
              s.throughput(d) * 8 / 1e9, s.packetRate(d), s.meanPacketSize(d), s.peak(d) * 8 / 1e9));
        }
      }
      if (s.underlay().present()) {
        b.append(String.format("Underlay %s: ", s.underlay().name()));
        if (s.lineRateBytesPerSecond() > 0) {
          b.append(String.format("line rate %.3f Gbps (%s); transmit %.0f%%, receive %.0f%% of it.%n",
              s.lineRateBytesPerSecond() * 8 / 1e9, s.lineRateSource(),
              100 * s.underlayUtilization(Direction.DOWNLOAD), 100 * s.underlayUtilization(Direction.UPLOAD)));
        } else {
          b.append("line rate unknown (set --underlay.line-rate).\n");
        }
      } else {
        b.append("Underlay: not found.\n");
      }
      b.append(String.format("CPU: %d cores online, %d saturated; busiest:", s.onlineCores(), s.saturatedCores(saturation)));
      s.cores().stream().filter(Core::online)
          .sorted((x, y) -> Double.compare(y.busy(), x.busy())).limit(4)
          .forEach(c -> b.append(String.format(" cpu%d %.0f%%", c.cpu(), 100 * c.busy())));
      b.append('\n');
      if (!Double.isNaN(s.datapathCores())) {
        b.append(String.format("Datapath CPU: %.2f cores (%s).%n", s.datapathCores(), s.datapathDescription()));
      }
      Judgement j = p.judgement();
      if (j != null && s.tunnel().present()) {
        for (Direction d : Direction.values()) {
          DirectionJudgement dj = j.of(d);
          b.append(String.format("%s: %s at %.0f%% of a %.3f Gbps ceiling (%s: %s). %s%n",
              cap(d.label()), dj.verdict().label(), 100 * dj.utilization(), dj.ceiling().gbps(),
              dj.ceiling().source().label(), dj.ceiling().basis(), dj.reason()));
        }
        for (AdviceItem a : j.advice()) {
          b.append("Advice: ").append(a.advice().label()).append(" - ").append(a.reason()).append('\n');
        }
      }
      return b.toString();
    }
  }
}
