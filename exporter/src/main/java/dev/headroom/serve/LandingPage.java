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
import java.util.Locale;

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

  /** The page for {@code p} (null before the first sample), with {@code ready} in its header. */
  public static String render(Published p, HeadroomMetrics.ExporterInfo info, String telemetryPath,
      Readiness.State ready) {
    Sample s = p == null ? null : p.sample();
    Judgement j = p == null ? null : p.judgement();
    StringBuilder b = new StringBuilder(6144);
    b.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">")
        .append("<title>headroom ").append(esc(info.tunnelInterface())).append("</title>")
        .append("<link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/static/live.css\"></head><body>\n")
        .append("<header><h1>headroom</h1><p id=\"facts\" data-k=\"facts\">").append(esc(facts(s, j)))
        .append("</p><p class=\"status\"><span data-k=\"ready\">")
        .append(esc(ready.ready() ? "ready" : "not ready: " + ready.reason()))
        .append("</span> <span data-k=\"updated\">")
        .append(s == null ? "" : "sample " + s.sequence()).append("</span></p></header>\n<main>\n");

    b.append("<section class=\"dirs\" aria-label=\"Verdict per direction\">\n");
    for (Direction d : Direction.values()) {
      direction(b, d, s, j, p == null ? Learned.NONE : p.learned());
    }
    b.append("</section>\n<section id=\"advice\"><h2>Advice</h2><ul data-list=\"advice\">");
    if (j == null) {
      b.append("<li>Verdict pending: the judge has not published one yet.</li>");
    } else {
      for (AdviceItem a : j.advice()) {
        b.append("<li>");
        if (a.advice() != Advice.NONE) { // "none" has nothing to name; its reason says so
          b.append("<b>").append(esc(Explainer.adviceWords(a.advice()))).append("</b>: ");
        }
        b.append(esc(cap(Explainer.advice(j, a)))).append("</li>");
      }
    }
    b.append("</ul></section>\n");

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

  private static void direction(StringBuilder b, Direction d, Sample s, Judgement j, Learned learned) {
    DirectionJudgement dj = j == null ? null : j.of(d);
    String k = d.label();
    double rate = s == null ? Double.NaN : s.throughput(d);
    double ceiling = dj == null ? Double.NaN : dj.ceiling().bytesPerSecond();
    double util = dj == null ? Double.NaN : dj.utilization();
    double peakUtil = ceiling > 0 && s != null ? s.peak(d) / ceiling : Double.NaN;
    String verdict = dj == null ? "pending" : dj.verdict().label();
    b.append("<article class=\"dir\" data-dir=\"").append(k).append("\" data-verdict=\"").append(verdict).append("\">")
        .append("<h2>").append(cap(k)).append(" <small>").append(d == Direction.DOWNLOAD
            ? "users pull; peer encrypts" : "users push; peer decrypts").append("</small></h2>")
        .append("<p class=\"verdict\" data-k=\"").append(k).append(".verdict\">")
        .append(esc(dj == null ? "Verdict pending" : Explainer.headline(dj))).append("</p>")
        .append("<p class=\"big\"><span data-k=\"").append(k).append(".gbps\">").append(gbps(rate))
        .append("</span> Gbps <span class=\"of\" data-k=\"").append(k).append(".ceiling\">")
        .append(esc(dj == null ? ceilingText(null) : ceilingText(dj.ceiling()))).append("</span></p>")
        .append("<div class=\"meter\"><i data-w=\"").append(k).append(".util\" style=\"width:")
        .append(pct(Math.min(1, Double.isNaN(util) ? 0 : util))).append("\"></i></div>")
        .append("<p class=\"nums\">Utilization <b data-k=\"").append(k).append(".util\">").append(pctText(util))
        .append("</b>; peak <b data-k=\"").append(k).append(".peak\">")
        .append(peakText(s == null ? Double.NaN : s.peak(d), peakUtil)).append("</b></p>")
        .append("<p class=\"spare\" data-k=\"").append(k).append(".spare\">")
        .append(esc(dj == null ? "" : cap(Explainer.spare(j, d)))).append("</p>")
        .append("<p class=\"reason\" data-k=\"").append(k).append(".reason\">")
        .append(esc(dj == null ? "" : Explainer.reason(j, d))).append("</p><p class=\"basis\" data-k=\"").append(k)
        .append(".basis\">").append(esc(dj == null ? "" : Explainer.basis(dj.ceiling()))).append("</p><p class=\"observed\" data-k=\"")
        .append(k).append(".observed\">").append(esc(observedText(learned, d))).append("</p></article>\n");
  }

  private static void cores(StringBuilder b, Sample s) {
    if (s == null) {
      b.append("<p>No sample yet.</p>");
      return;
    }
    for (Core c : s.cores()) {
      // Spaces between the spans: a terminal browser shows "cpu0 12% busy", the grid ignores them.
      b.append("<div class=\"core\"><span class=\"name\">cpu").append(c.cpu()).append("</span> ")
          .append("<span class=\"strip\"></span> <span class=\"now\">");
      if (!c.online()) {
        b.append("offline");
      } else {
        b.append(pct(c.busy())).append(" busy");
        if (c.hasShares()) {
          b.append(", softirq ").append(pct(c.softirq())).append(", steal ").append(pct(c.steal()));
        }
      }
      b.append("</span></div>");
    }
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
