package dev.headroom.serve;

import dev.headroom.json.JsonParser;
import dev.headroom.sample.Core;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The live page at {@code /}. The server writes every number as text (so {@code lynx} or {@code curl} show
 * the reading without JavaScript); {@code /static/live.js} then keeps the same elements current from
 * {@code /api/v1/status} and draws the charts from {@code /api/v1/history}. The verdict part is read from
 * the status document itself, so the page and the API can never disagree about its shape.
 *
 * <p>Usage: {@code String html = LandingPage.render(published, info, "/metrics", statusJson, history);}
 */
public final class LandingPage {
  private LandingPage() {}

  public static String render(Published p, HeadroomCollector.ExporterInfo info, String telemetryPath) {
    return render(p, info, telemetryPath, null, null);
  }

  /**
   * @param statusJson the document {@code /api/v1/status} would serve now (null: no verdict shown)
   * @param history    for the cores' mode shares (may be null)
   */
  public static String render(Published p, HeadroomCollector.ExporterInfo info, String telemetryPath,
      String statusJson, History history) {
    Sample s = p == null ? null : p.sample();
    Map<String, Object> status = statusJson == null ? Map.of() : JsonParser.parseObject(statusJson);
    Map<String, Object> verdict = obj(status.get("verdict"));
    StringBuilder b = new StringBuilder(6144);
    b.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">")
        .append("<title>headroom ").append(esc(info.tunnelInterface())).append("</title>")
        .append("<link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/static/live.css\"></head><body>\n")
        .append("<header><h1>headroom</h1><p id=\"facts\" data-k=\"facts\">").append(esc(facts(s, verdict)))
        .append("</p><p class=\"status\"><span data-k=\"ready\">")
        .append(esc(readyText(status))).append("</span> <span data-k=\"updated\">")
        .append(s == null ? "" : "sample " + s.sequence()).append("</span></p></header>\n<main>\n");

    b.append("<section class=\"dirs\" aria-label=\"Verdict per direction\">\n");
    for (Direction d : Direction.values()) {
      direction(b, d, s, obj(verdict.get(d.label())));
    }
    b.append("</section>\n<section id=\"advice\"><h2>Advice</h2><ul data-list=\"advice\">");
    List<?> advice = verdict.get("advice") instanceof List<?> l ? l : List.of();
    if (verdict.isEmpty()) {
      b.append("<li>Verdict pending: the judge has not published one yet.</li>");
    }
    for (Object o : advice) {
      Map<String, Object> a = obj(o);
      b.append("<li><b>").append(esc(adviceWords(str(a.get("advice"))))).append("</b>: ")
          .append(esc(str(a.get("reason")))).append("</li>");
    }
    b.append("</ul></section>\n");

    b.append("<section id=\"charts\"><h2>Throughput <small data-k=\"span\">last minutes</small></h2>");
    for (Direction d : Direction.values()) {
      b.append("<figure id=\"chart-").append(d.label()).append("\" class=\"chart\"><figcaption>")
          .append(cap(d.label())).append(" Gbps</figcaption><p class=\"nojs\">Charts need JavaScript; the")
          .append(" numbers above are the latest sample.</p></figure>");
    }
    b.append("</section>\n");

    b.append("<section id=\"cpu\"><h2>CPU per core <small>busy by mode, one column per sample</small></h2>")
        .append("<p class=\"legend\"><i class=\"user\"></i>user <i class=\"system\"></i>system")
        .append(" <i class=\"softirq\"></i>softirq <i class=\"steal\"></i>steal</p>")
        .append("<div id=\"cores\" data-list=\"cores\">");
    cores(b, s, history);
    b.append("</div></section>\n");

    b.append("<section><h2>In words</h2><pre data-k=\"words\">")
        .append(esc(Reading.describe(s, info.saturation()))).append("</pre></section>\n</main>\n");
    b.append("<footer><a href=\"").append(esc(telemetryPath)).append("\">Metrics</a> · ")
        .append("<a href=\"/api/v1/status\">Status JSON</a> · <a href=\"/api/v1/history\">History JSON</a> · ")
        .append("<a href=\"/-/ready\">Readiness</a> · Docs: <code>docs/live-page.md</code>, ")
        .append("<code>docs/verdict.md</code>, <code>docs/metrics.md</code> in the headroom source · version ")
        .append(esc(info.version())).append("</footer>\n")
        .append("<script src=\"/static/live.js\" data-telemetry=\"").append(esc(telemetryPath))
        .append("\"></script></body></html>\n");
    return b.toString();
  }

  private static void direction(StringBuilder b, Direction d, Sample s, Map<String, Object> v) {
    String k = d.label();
    double rate = s == null ? Double.NaN : s.throughput(d);
    double ceiling = num(v.get("ceiling_bytes_per_second"));
    double util = num(v.get("utilization"));
    double peakUtil = num(v.get("peak_utilization"));
    String verdict = str(v.get("verdict"));
    b.append("<article class=\"dir\" data-dir=\"").append(k).append("\" data-verdict=\"")
        .append(esc(verdict.isEmpty() ? "pending" : verdict)).append("\">")
        .append("<h2>").append(cap(k)).append(" <small>").append(d == Direction.DOWNLOAD
            ? "users pull; peer encrypts" : "users push; peer decrypts").append("</small></h2>")
        .append("<p class=\"verdict\" data-k=\"").append(k).append(".verdict\">")
        .append(esc(verdict.isEmpty() ? "Verdict pending" : verdictWords(verdict))).append("</p>")
        .append("<p class=\"big\"><span data-k=\"").append(k).append(".gbps\">").append(gbps(rate))
        .append("</span> Gbps <span class=\"of\" data-k=\"").append(k).append(".ceiling\">")
        .append(esc(ceilingText(ceiling, str(v.get("ceiling_source"))))).append("</span></p>")
        .append("<div class=\"meter\"><i data-w=\"").append(k).append(".util\" style=\"width:")
        .append(pct(Math.min(1, Double.isNaN(util) ? 0 : util))).append("\"></i></div>")
        .append("<p class=\"nums\">Utilization <b data-k=\"").append(k).append(".util\">").append(pctText(util))
        .append("</b>; peak <b data-k=\"").append(k).append(".peak\">")
        .append(peakText(s == null ? Double.NaN : s.peak(d), peakUtil)).append("</b></p>")
        .append("<p class=\"reason\" data-k=\"").append(k).append(".reason\">").append(esc(str(v.get("reason"))))
        .append("</p><p class=\"basis\" data-k=\"").append(k).append(".basis\">")
        .append(esc(str(v.get("ceiling_basis")))).append("</p></article>\n");
  }

  private static void cores(StringBuilder b, Sample s, History history) {
    if (s == null) {
      b.append("<p>No sample yet.</p>");
      return;
    }
    History.Point shares = history == null ? null : history.point(s.sequence());
    for (Core c : s.cores()) {
      History.CoreShare sh = shares == null ? null : shares.core(c.cpu());
      b.append("<div class=\"core\"><span class=\"name\">cpu").append(c.cpu()).append("</span>")
          .append("<span class=\"strip\"></span><span class=\"now\">");
      if (!c.online()) {
        b.append("offline");
      } else {
        b.append(pct(c.busy())).append(" busy");
        if (sh != null && !Double.isNaN(sh.busy())) {
          b.append(", softirq ").append(pct(sh.softirq())).append(", steal ").append(pct(sh.steal()));
        }
      }
      b.append("</span></div>");
    }
  }

  static String facts(Sample s, Map<String, Object> verdict) {
    if (s == null) {
      return "No sample yet.";
    }
    StringBuilder f = new StringBuilder();
    f.append(s.tunnel().name());
    if (s.tunnel().present()) {
      f.append(" · ").append(s.datapath().label()).append(" datapath · MTU ").append(s.tunnel().mtu());
    } else {
      f.append(" absent");
    }
    f.append(" · ").append(s.onlineCores()).append(" cores");
    if (s.underlay().present()) {
      f.append(" · ").append(s.underlay().name());
      if (s.lineRateBytesPerSecond() > 0) {
        f.append(' ').append(trim(s.lineRateBytesPerSecond() * 8 / 1e9)).append(" Gbps (")
            .append(s.lineRateSource()).append(')');
      }
    }
    String source = str(obj(verdict.get("download")).get("ceiling_source"));
    f.append(" · ceiling ").append(source.isEmpty() ? "pending" : source);
    return f.toString();
  }

  private static String readyText(Map<String, Object> status) {
    Map<String, Object> r = obj(status.get("ready"));
    if (r.isEmpty()) {
      return "";
    }
    return Boolean.TRUE.equals(r.get("ready")) ? "ready" : "not ready: " + str(r.get("reason"));
  }

  static String ceilingText(double ceiling, String source) {
    if (Double.isNaN(ceiling)) {
      return "ceiling pending";
    }
    return "of " + gbps(ceiling) + (source.isEmpty() ? "" : " (" + source + ")");
  }

  static String peakText(double peakBytes, double peakUtil) {
    if (Double.isNaN(peakBytes)) {
      return "none yet";
    }
    return gbps(peakBytes) + " Gbps" + (Double.isNaN(peakUtil) ? "" : " (" + pct(peakUtil) + ")");
  }

  /** The verdict labels of {@code headroom_verdict} in words. */
  static String verdictWords(String v) {
    return switch (v) {
      case "headroom" -> "Headroom";
      case "cpu_bound" -> "CPU-bound";
      case "link_bound" -> "Link-bound";
      case "single_tunnel_bound" -> "One tunnel saturating a core";
      default -> v;
    };
  }

  /** The advice labels of {@code headroom_advice} in words. */
  static String adviceWords(String a) {
    return switch (a) {
      case "none" -> "Nothing to do";
      case "scale_up" -> "Scale up";
      case "scale_out" -> "Scale out";
      case "enable_kernel_wireguard" -> "Enable kernel WireGuard";
      case "raise_mtu" -> "Raise the MTU";
      case "bigger_interface" -> "Bigger interface";
      default -> a;
    };
  }

  static String gbps(double bytesPerSecond) {
    return Double.isNaN(bytesPerSecond) ? "–" : String.format(Locale.ROOT, "%.3f", bytesPerSecond * 8 / 1e9);
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
  }

  static String pct(double ratio) {
    return String.format(Locale.ROOT, "%.0f%%", 100 * ratio);
  }

  private static String pctText(double ratio) {
    return Double.isNaN(ratio) ? "–" : pct(ratio);
  }

  private static String cap(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> obj(Object o) {
    return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static String str(Object o) {
    return o == null ? "" : o.toString();
  }

  private static double num(Object o) {
    return o instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  /** The current reading as plain sentences, shared by the page and {@code check}. */
  public static final class Reading {
    private Reading() {}

    public static String describe(Sample s, double saturation) {
      if (s == null) {
        return "No sample yet.\n";
      }
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
      return b.toString();
    }
  }
}
