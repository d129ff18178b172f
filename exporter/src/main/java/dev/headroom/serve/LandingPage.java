package dev.headroom.serve;

import static dev.headroom.judge.Units.pct;

import dev.headroom.judge.Advice;
import dev.headroom.read.Datapath;
import dev.headroom.judge.AdviceItem;
import dev.headroom.judge.Ceiling;
import dev.headroom.judge.DirectionJudgement;
import dev.headroom.judge.Judgement;
import dev.headroom.judge.Learned;
import dev.headroom.judge.ObservedCeiling;
import dev.headroom.judge.Units;
import dev.headroom.sample.Core;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import dev.headroom.judge.ThisCpu;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The live page at {@code /}. The server writes every number as text (so {@code lynx} or {@code curl} show
 * the reading, the verdict and the advice without JavaScript); {@code /static/live.js} then keeps the same
 * elements (marked {@code data-k}) current from {@code /api/v1/status} and draws the charts from
 * {@code /api/v1/history}.
 *
 * <p>Usage: {@code String html = LandingPage.render(published, info, "/metrics", readiness);}
 */
public final class LandingPage {
  private LandingPage() {}

  /**
   * What the page shows, made once for the page as served and for {@code live.js} (the status JSON's {@code page}):
   * {@code text} by {@code data-k} key, {@code html} by {@code data-html} key (the advice list and this CPU's size
   * table, whose layout is the server's too).
   */
  record Parts(Map<String, String> text, Map<String, String> html) {}

  /** The parts of the page for {@code p} (null before the first sample). */
  static Parts parts(Published p, Readiness.State ready) {
    Sample s = p == null ? null : p.sample();
    Judgement j = p == null ? null : p.judgement();
    Learned learned = p == null ? Learned.NONE : p.learned();
    Map<String, String> t = new LinkedHashMap<>();
    t.put("ready", ready.ready() ? "ready" : "not ready: " + ready.reason());
    t.put("updated", s == null ? "" : "sample " + s.sequence());
    for (Direction d : Direction.values()) {
      DirectionJudgement dj = j == null ? null : j.of(d);
      String k = d.label() + ".";
      double ceiling = dj == null ? Double.NaN : dj.ceiling().bytesPerSecond();
      double peak = s == null ? Double.NaN : s.peak(d);
      t.put(k + "verdict", dj == null ? "Verdict pending" : Explainer.headline(dj));
      t.put(k + "gbps", gbps(s == null ? Double.NaN : s.throughput(d)));
      t.put(k + "ceiling", ceilingText(dj == null ? null : dj.ceiling()));
      t.put(k + "util", pctText(dj == null ? Double.NaN : dj.utilization()));
      t.put(k + "peak", peakText(peak, ceiling > 0 ? peak / ceiling : Double.NaN));
      t.put(k + "spare", dj == null ? "" : cap(Explainer.spare(j, d)));
      t.put(k + "reason", dj == null ? "" : Explainer.reason(j, d));
      t.put(k + "basis", dj == null ? "" : Explainer.basis(dj.ceiling()));
      t.put(k + "observed", observedText(learned, d));
    }
    ThisCpu cpu = j == null ? null : ThisCpu.of(j.of(Direction.DOWNLOAD).ceiling().cost(), j.observation());
    t.put("this_cpu", cpu == null ? "" : cap(Explainer.thisCpu(cpu)));
    return new Parts(t, Map.of("advice", advice(j), "sizes", cpu == null ? "" : sizes(cpu)));
  }

  /** The page for {@code p} (null before the first sample), with {@code ready} in its header. */
  public static String render(Published p, HeadroomMetrics.ExporterInfo info, String telemetryPath,
      Readiness.State ready) {
    Sample s = p == null ? null : p.sample();
    Judgement j = p == null ? null : p.judgement();
    Parts parts = parts(p, ready);
    Map<String, String> t = parts.text();
    Map<String, String> html = parts.html();
    StringBuilder b = new StringBuilder(6144);
    b.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">")
        .append("<title>headroom ").append(esc(info.tunnelInterface())).append("</title>")
        .append("<link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/static/live.css\"></head><body>\n")
        .append("<header><h1>headroom</h1><p id=\"facts\" data-k=\"facts\">").append(esc(facts(s, j)))
        .append("</p><p class=\"status\">").append(k(t, "ready", "span")).append(' ').append(k(t, "updated", "span"))
        .append("</p></header>\n<main>\n");

    b.append("<section class=\"dirs\" aria-label=\"Verdict per direction\">\n");
    for (Direction d : Direction.values()) {
      direction(b, d, t, j);
    }
    b.append("</section>\n<section id=\"this-cpu\" aria-label=\"This CPU against the reference\">")
        .append(k(t, "this_cpu", "p")).append("<div data-html=\"sizes\">").append(html.get("sizes"))
        .append("</div></section>\n");
    b.append("<section id=\"advice\"><h2>Advice</h2><ul data-html=\"advice\">").append(html.get("advice"))
        .append("</ul></section>\n");

    b.append("<section id=\"charts\"><h2>Throughput <small data-k=\"span\">last ")
        .append(History.SPAN.toMinutes()).append(" minutes</small></h2>");
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
    cores(b, s);
    b.append("</div></section>\n");

    b.append("<section><h2>In words</h2><pre data-k=\"words\">")
        .append(esc(InWords.describe(p, info.saturation()))).append("</pre></section>\n</main>\n");
    b.append("<footer><a href=\"").append(esc(telemetryPath)).append("\">Metrics</a> · ")
        .append("<a href=\"/api/v1/status\">Status JSON</a> · <a href=\"/api/v1/history\">History JSON</a> · ")
        .append("<a href=\"/-/ready\">Readiness</a> · Docs: <code>docs/live-page.md</code>, ")
        .append("<code>docs/verdict.md</code>, <code>docs/metrics.md</code> in the headroom source · version ")
        .append(esc(info.version())).append("</footer>\n")
        .append("<script src=\"/static/live.js\"></script></body></html>\n");
    return b.toString();
  }

  /** An element that shows a text of the page under its key, for live.js to keep current. */
  private static String k(Map<String, String> t, String key, String tag) {
    return k(t, key, tag, "");
  }

  private static String k(Map<String, String> t, String key, String tag, String cls) {
    return "<" + tag + (cls.isEmpty() ? "" : " class=\"" + cls + "\"") + " data-k=\"" + key + "\">"
        + esc(t.get(key)) + "</" + tag + ">";
  }

  private static void direction(StringBuilder b, Direction d, Map<String, String> t, Judgement j) {
    DirectionJudgement dj = j == null ? null : j.of(d);
    String k = d.label();
    double util = dj == null ? Double.NaN : dj.utilization();
    b.append("<article class=\"dir\" data-dir=\"").append(k).append("\" data-verdict=\"")
        .append(dj == null ? "pending" : dj.verdict().label()).append("\">")
        .append("<h2>").append(cap(k)).append(" <small>").append(d == Direction.DOWNLOAD
            ? "users pull; peer encrypts" : "users push; peer decrypts").append("</small></h2>")
        .append(k(t, k + ".verdict", "p", "verdict"))
        .append("<p class=\"big\">").append(k(t, k + ".gbps", "span")).append(" Gbps ")
        .append(k(t, k + ".ceiling", "span", "of")).append("</p>")
        .append("<div class=\"meter\"><i data-w=\"").append(k).append(".util\" style=\"width:")
        .append(pct(Math.min(1, Double.isNaN(util) ? 0 : util))).append("\"></i></div>")
        .append("<p class=\"nums\">Utilization ").append(k(t, k + ".util", "b")).append("; peak ")
        .append(k(t, k + ".peak", "b")).append("</p>")
        .append(k(t, k + ".spare", "p", "spare")).append(k(t, k + ".reason", "p", "reason"))
        .append(k(t, k + ".basis", "p", "basis")).append(k(t, k + ".observed", "p", "observed"))
        .append("</article>\n");
  }

  /** The advice list's items: what to do in bold, then why; "none" has nothing to name (its reason says so). */
  private static String advice(Judgement j) {
    if (j == null) {
      return "<li>Verdict pending: the judge has not published one yet.</li>";
    }
    StringBuilder b = new StringBuilder();
    for (AdviceItem a : j.advice()) {
      b.append("<li>");
      if (a.advice() != Advice.NONE) {
        b.append("<b>").append(esc(Explainer.adviceWords(a.advice()))).append("</b>: ");
      }
      b.append(esc(cap(Explainer.advice(j, a)))).append("</li>");
    }
    return b.toString();
  }

  /** This CPU's size table (Gbps per guide size and direction), and what its mark means when a figure has one. */
  private static String sizes(ThisCpu cpu) {
    if (cpu.rows().isEmpty()) {
      return "";
    }
    StringBuilder b = new StringBuilder("<p class=\"note\">").append(esc(Explainer.SIZES_WORDS))
        .append("</p><table class=\"sizes\"><thead><tr>");
    Explainer.sizeHeadings(cpu).forEach(h -> b.append("<th>").append(esc(h)).append("</th>"));
    b.append("</tr></thead><tbody>");
    boolean capped = false;
    for (List<String> row : Explainer.sizeCells(cpu)) {
      b.append("<tr>");
      for (String cell : row) {
        b.append("<td>").append(esc(cell)).append("</td>");
        capped |= cell.endsWith(Explainer.LINK_CAPPED_MARK);
      }
      b.append("</tr>");
    }
    b.append("</tbody></table>");
    if (capped) {
      b.append("<p class=\"note\">").append(esc(Explainer.LINK_CAPPED_WORDS)).append("</p>");
    }
    return b.toString();
  }

  private static void cores(StringBuilder b, Sample s) {
    if (s == null) {
      b.append("<p>No sample yet.</p>");
      return;
    }
    for (Core c : s.cores()) {
      // Spaces between the spans: a terminal browser shows "cpu0 12% busy", the grid ignores them.
      b.append("<div class=\"core\"><span class=\"name\">cpu").append(c.cpu()).append("</span> ")
          .append("<span class=\"strip\"></span> <span class=\"now\">").append(esc(coreText(c)))
          .append("</span></div>");
    }
  }

  /** A core's state now: "12% busy, softirq 3%, steal 0%", or "offline"; live.js shows it from the status JSON. */
  static String coreText(Core c) {
    if (!c.online()) {
      return "offline";
    }
    return pct(c.busy()) + " busy" + (c.hasShares() ? ", softirq " + pct(c.softirq()) + ", steal " + pct(c.steal()) : "");
  }

  static String facts(Sample s, Judgement j) {
    if (s == null) {
      return "No sample yet.";
    }
    StringBuilder f = new StringBuilder();
    f.append(s.tunnel().name());
    if (s.datapath() == Datapath.NETSTACK) {
      // No interface: the bytes are NetBird's per-peer counters, read at its status interval.
      f.append(" absent · netstack datapath (NetBird) · rates over ").append(trim(s.tunnelResolutionSeconds()))
          .append(" s");
    } else if (s.tunnel().present()) {
      f.append(" · ").append(s.datapath().label()).append(" datapath · MTU ").append(s.tunnel().mtu());
    } else {
      f.append(" absent");
    }
    f.append(" · ").append(s.onlineCores()).append(" cores");
    if (j != null && !Double.isNaN(j.observation().cpuQuotaCores())) {
      f.append(" (quota ").append(trim(j.observation().cpuQuotaCores())).append(')');
    }
    if (s.underlay().present()) {
      f.append(" · ").append(s.underlay().name());
      if (s.lineRateBytesPerSecond() > 0) {
        f.append(' ').append(trim(Units.gbps(s.lineRateBytesPerSecond()))).append(" Gbps (")
            .append(s.lineRateSource()).append(')');
      }
    }
    f.append(" · ceiling ").append(j == null ? "pending" : j.of(Direction.DOWNLOAD).ceiling().source().label());
    return f.toString();
  }

  /**
   * What the peer learned of this direction's ceiling from its own saturation, and a set ceiling it beat; the
   * page's script shows it from the status JSON ({@code observed_words}).
   */
  static String observedText(Learned l, Direction d) {
    ObservedCeiling o = l.applies() ? l.observed().get(d) : null;
    StringBuilder t = new StringBuilder("Observed ceiling: ");
    if (o == null) {
      t.append("none yet");
    } else {
      t.append(gbps(o.bytesPerSecond())).append(" Gbps, sustained for ").append(Units.durationText(o.episodeSeconds()))
          .append(o.from() == ObservedCeiling.From.CPU_SATURATED ? " with the CPU saturated" : " above its ceiling")
          .append(", learned ").append(o.learnedAt().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    }
    Learned.Beaten b = l.beaten().get(d);
    if (b != null) {
      t.append(". Sustained ").append(gbps(b.sustainedBytesPerSecond())).append(" Gbps for ")
          .append(Units.durationText(b.seconds())).append(", above the ").append(b.source().label())
          .append(" ceiling of ").append(gbps(b.ceilingBytesPerSecond())).append(" Gbps: that ceiling is too low");
    }
    return t.toString();
  }

  /**
   * "of 2.30 Gbps ceiling (cost; 224,609 packets/s of 1,280 bytes)": the byte figure, where it came from, and the
   * packets it stands for; the page's words for {@code ceiling_words} in the status JSON as well.
   */
  static String ceilingText(Ceiling c) {
    if (c == null) {
      return "· ceiling pending";
    }
    String packets = Double.isNaN(c.packetsPerSecond()) ? ""
        : String.format(Locale.ROOT, "; %,.0f packets/s of %,.0f bytes", c.packetsPerSecond(), c.packetBytes());
    return "of " + gbps(c.bytesPerSecond()) + " ceiling (" + c.source().label() + packets + ")";
  }

  static String peakText(double peakBytes, double peakUtil) {
    if (Double.isNaN(peakBytes)) {
      return "none yet";
    }
    return gbps(peakBytes) + " Gbps" + (Double.isNaN(peakUtil) ? "" : " (" + pct(peakUtil) + ")");
  }

  static String gbps(double bytesPerSecond) {
    return Double.isNaN(bytesPerSecond) ? "–" : String.format(Locale.ROOT, "%.3f", Units.gbps(bytesPerSecond));
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
  }

  private static String pctText(double ratio) {
    return Double.isNaN(ratio) ? "–" : pct(ratio);
  }

  static String cap(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
