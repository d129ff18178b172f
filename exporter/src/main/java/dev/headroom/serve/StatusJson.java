package dev.headroom.serve;

import dev.headroom.json.JsonWriter;
import dev.headroom.judge.AdviceItem;
import dev.headroom.judge.CostModel;
import dev.headroom.judge.DirectionJudgement;
import dev.headroom.judge.Judgement;
import dev.headroom.judge.Learned;
import dev.headroom.judge.ObservedCeiling;
import dev.headroom.judge.ThisCpu;
import dev.headroom.judge.Units;
import dev.headroom.read.wg.Connection;
import dev.headroom.read.wg.NetbirdStatus;
import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.sample.census.Talker;
import dev.headroom.read.CpuTimes;
import dev.headroom.sample.Core;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import dev.headroom.sample.SourceHealth;
import java.util.Map;

/**
 * The JSON status document at {@code /api/v1/status}: the latest sample in plain numbers, for the live
 * page, scripts and {@code check}. Rates are bytes per second like the metrics; {@code gbps} fields are
 * there for humans.
 *
 * <p>Usage: {@code String json = StatusJson.render(published, info, readiness);}
 */
public final class StatusJson {
  private StatusJson() {}

  /**
   * The ceiling this peer learned for a direction (null when none, or learned under another shape) and a
   * profile or configured ceiling it has beaten (null when none).
   */
  private static void observed(JsonWriter w, Learned l, Direction d) {
    ObservedCeiling o = l.applies() ? l.observed().get(d) : null;
    if (o == null) {
      w.name("observed").value((String) null);
    } else {
      w.name("observed").object().field("bytes_per_second", o.bytesPerSecond())
          .field("gbps", Units.gbps(o.bytesPerSecond()))
          .field("learned_at", o.learnedAt().toString())
          .field("episode_seconds", o.episodeSeconds())
          .field("from", o.from().label()).end();
    }
    Learned.Beaten b = l.beaten().get(d);
    if (b == null) {
      w.name("ceiling_beaten").value((String) null);
    } else {
      w.name("ceiling_beaten").object().field("source", b.source().label())
          .field("ceiling_bytes_per_second", b.ceilingBytesPerSecond())
          .field("sustained_bytes_per_second", b.sustainedBytesPerSecond())
          .field("seconds", b.seconds()).field("at", b.at().toString()).end();
    }
  }

  /** What the cost model has learned: the costs, whether they are used, and the evidence behind them. */
  private static void cost(JsonWriter w, CostModel.Estimate e) {
    w.name("cost").object().field("learned", e.usable())
        .field("why", e.usable() ? null : e.shortfall().label())
        .field("directions_apart", e.apart());
    for (Direction d : Direction.values()) {
      w.name(d.label()).object().field("cpu_seconds_per_packet", e.cost(d))
          .field("learned_at_bytes_per_second", e.meanRate().getOrDefault(d, Double.NaN)).end();
    }
    w.field("decrypt_encrypt_ratio", e.ratio()).field("reference_decrypt_encrypt_ratio", e.referenceRatio())
        .field("fixed_cores", e.fixedCores()).field("mean_cores", e.meanCores()).field("seconds", e.seconds())
        .field("needed_seconds", e.neededSeconds()).field("fit_error", e.fitError())
        .field("max_fit_error", CostModel.MAX_FIT_ERROR).end();
  }

  /**
   * This CPU against the reference box per direction, and what a peer of this CPU carries at the guide's sizes
   * (this datapath's, and kernel WireGuard's for a userspace one); speeds null and no sizes while the cost is
   * not learned.
   */
  private static void thisCpu(JsonWriter w, ThisCpu t) {
    w.name("this_cpu").object().field("learned", !t.rows().isEmpty());
    w.name("speed_vs_reference").object();
    for (Direction d : Direction.values()) {
      w.field(d.label(), t.speed().get(d));
    }
    w.end().field("evidence_seconds", t.evidence().seconds()).field("fit_error", t.evidence().fitError())
        .field("directions_apart", t.evidence().apart());
    w.name("sizes").array();
    for (ThisCpu.Size r : t.rows()) {
      w.object().field("datapath", r.datapath().label()).field("cores", r.cores());
      for (Direction d : Direction.values()) {
        w.name(d.label()).object().field("bytes_per_second", r.bytesPerSecond().get(d))
            .field("gbps", Units.gbps(r.bytesPerSecond().get(d))).field("link_capped", r.linkCapped().get(d)).end();
      }
      w.end();
    }
    w.end().end();
  }

  /** The live page's texts and fragments as the server writes them, for live.js to show as they are. */
  private static void page(JsonWriter w, LandingPage.Parts parts) {
    w.name("page").object().name("text").object();
    parts.text().forEach(w::field);
    w.end().name("html").object();
    parts.html().forEach(w::field);
    w.end().end();
  }

  public static String render(Published p, HeadroomMetrics.ExporterInfo info, Readiness.State ready) {
    JsonWriter w = new JsonWriter().object();
    w.field("version", info.version()).field("network", info.network()).field("site", info.site());
    w.name("ready").object().field("ready", ready.ready()).field("reason", ready.reason()).end();
    w.field("facts_words", LandingPage.facts(p == null ? null : p.sample(), p == null ? null : p.judgement()));
    page(w, LandingPage.parts(p, ready));
    if (p == null) {
      return w.end().toString();
    }
    Sample s = p.sample();
    w.field("sequence", s.sequence()).field("timestamp", s.wallMillis() / 1000.0).field("complete", s.complete());
    w.name("tunnel").object()
        .field("interface", s.tunnel().name())
        .field("present", s.tunnel().present())
        .field("datapath", s.datapath().label())
        // Seconds the rates and peaks are measured over: NetBird's status interval in netstack mode.
        .field("resolution_seconds", s.tunnelResolutionSeconds())
        .field("mtu", s.tunnel().mtu())
        .field("restarts", s.tunnelTraffic().restarts());
    for (Direction d : Direction.values()) {
      w.name(d.label()).object()
          .field("bytes_per_second", s.throughput(d))
          .field("gbps", Units.gbps(s.throughput(d)))
          .field("packets_per_second", s.packetRate(d))
          .field("mean_packet_bytes", s.meanPacketSize(d))
          .field("peak_bytes_per_second", s.peak(d))
          .end();
    }
    w.end();
    w.name("underlay").object()
        .field("interface", s.underlay().name())
        .field("present", s.underlay().present())
        .field("mtu", s.underlay().mtu())
        .field("line_rate_bytes_per_second", s.lineRateBytesPerSecond())
        .field("line_rate_source", s.lineRateSource())
        .field("transmit_utilization", s.underlayUtilization(Direction.DOWNLOAD))
        .field("receive_utilization", s.underlayUtilization(Direction.UPLOAD))
        .end();
    w.name("cpu").object().field("online", s.onlineCores());
    Core hot = s.hottestCore();
    w.field("hottest_busy", hot == null ? Double.NaN : hot.busy());
    w.field("saturated", s.saturatedCores(info.saturation()));
    // The cgroup quota (cpu.max) as fractional cores, null when there is none; the judge's usable cores follow it.
    w.field("quota_cores", p.judgement() == null ? Double.NaN : p.judgement().observation().cpuQuotaCores());
    w.name("cores").array();
    for (Core c : s.cores()) {
      w.object().field("cpu", c.cpu()).field("online", c.online()).field("busy", c.busy())
          .field("words", LandingPage.coreText(c));
      if (c.online()) {
        CpuTimes t = c.times();
        long total = Math.max(1, t.total());
        // Shares since boot would be meaningless here; per-interval mode shares are in the metrics.
        w.field("softirq_seconds", t.softirq() / 1000.0).field("steal_seconds", t.steal() / 1000.0);
        w.field("total_seconds", total / 1000.0);
        // Ratios of the last interval (user includes nice, system includes irq); they sum to busy.
        w.field("user", c.user()).field("system", c.system()).field("softirq", c.softirq())
            .field("steal", c.steal());
      }
      w.end();
    }
    w.end().end();
    w.name("datapath").object()
        .field("kind", s.datapath().label())
        .field("cpu_cores", s.datapathCores())
        .field("found", s.datapathDescription())
        .end();
    if (p.judgement() != null) {
      Judgement j = p.judgement();
      w.name("verdict").object();
      for (Direction d : Direction.values()) {
        DirectionJudgement dj = j.of(d);
        double ceiling = dj.ceiling().bytesPerSecond();
        w.name(d.label()).object()
            .field("verdict", dj.verdict().label())
            .field("verdict_words", Explainer.headline(dj))
            .field("cause", dj.cause().label())
            .field("reason", Explainer.reason(j, d))
            .field("ceiling_bytes_per_second", ceiling)
            .field("ceiling_gbps", Units.gbps(ceiling))
            .field("ceiling_words", LandingPage.ceilingText(dj.ceiling()))
            .field("ceiling_packets_per_second", dj.ceiling().packetsPerSecond())
            .field("ceiling_packet_bytes", dj.ceiling().packetBytes())
            .field("ceiling_source", dj.ceiling().source().label())
            .field("ceiling_basis", Explainer.basis(dj.ceiling()))
            .field("utilization", dj.utilization())
            .field("peak_utilization", ceiling > 0 ? s.peak(d) / ceiling : Double.NaN)
            .field("spare_bytes_per_second", dj.spare().bytesPerSecond())
            .field("spare_gbps", Units.gbps(dj.spare().bytesPerSecond()))
            .field("spare_bound", dj.spare().bound().label())
            .field("spare_load", dj.spare().load())
            .field("spare_words", Explainer.spare(j, d));
        observed(w, p.learned(), d);
        w.field("observed_words", LandingPage.observedText(p.learned(), d));
        w.end();
      }
      w.name("advice").array();
      for (AdviceItem a : j.advice()) {
        w.object().field("advice", a.advice().label()).field("advice_words", Explainer.adviceWords(a.advice()))
            .field("direction", a.about().map(Direction::label).orElse(null)).field("ground", a.ground().label())
            .field("reason", Explainer.advice(j, a)).end();
      }
      w.end();
      w.field("usable_cores", j.usableCores());
      w.end();
      cost(w, j.of(Direction.DOWNLOAD).ceiling().cost());
      thisCpu(w, ThisCpu.of(j.of(Direction.DOWNLOAD).ceiling().cost(), j.observation()));
    }
    CensusSnapshot c = s.census();
    if (c != null) {
      w.name("census").object().field("tunnels", c.tunnels()).field("handshake_recent", c.handshakeRecent())
          .field("active", c.active());
      for (Direction d : Direction.values()) {
        w.name(d.label()).object()
            .field("hottest_bytes_per_second", c.direction(d).hottestBytesPerSecond())
            .field("hottest_share", c.direction(d).hottestShare())
            .field("active_mean_bytes_per_second", c.direction(d).activeMeanBytesPerSecond())
            .field("relayed_bytes_per_second", c.direction(d).bytesPerSecond(Connection.RELAYED))
            .end();
      }
      w.name("active_by_connection").object();
      for (Connection k : Connection.values()) {
        w.field(k.label(), c.active(k));
      }
      w.end();
      w.name("top_talkers").array();
      for (Talker t : c.topTalkers()) {
        w.object().field("name", t.shownName()).field("key", t.key()).field("connection", t.connection().label())
            .field("endpoint", t.endpoint())
            .field("download_bytes_per_second", t.downloadBytesPerSecond())
            .field("upload_bytes_per_second", t.uploadBytesPerSecond())
            .field("handshake_age_seconds", t.handshakeAgeSeconds()).field("active", t.active()).end();
      }
      w.end();
      InWords.namesMissing(p).ifPresent(why -> w.field("names_missing", why));
      w.end();
    }
    if (p.netbird() != null) {
      NetbirdStatus n = p.netbird();
      w.name("netbird").object().field("peers_listed", n.peersTotal()).field("connected", n.peersConnected())
          .field("p2p", n.p2p()).field("relayed", n.relayed()).end();
    }
    w.name("sources").object();
    for (Map.Entry<String, SourceHealth> e : s.sources().entrySet()) {
      w.name(e.getKey()).object().field("up", e.getValue().up()).field("errors", e.getValue().errors())
          .field("last_error", e.getValue().lastError()).end();
    }
    Learned.Store st = p.learned().store();
    if (!st.file().isEmpty()) {
      w.name("state").object().field("up", st.up()).field("errors", st.errors()).field("last_error", st.lastError())
          .field("file", st.file()).end();
    }
    w.end();
    w.field("words", InWords.describe(p, info.saturation()));
    return w.end().toString();
  }
}
