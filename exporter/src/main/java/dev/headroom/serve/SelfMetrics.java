package dev.headroom.serve;

import dev.headroom.sample.Sample;
import dev.headroom.sample.SourceHealth;
import dev.headroom.serve.web.Refusals;
import dev.headroom.judge.Learned;
import java.util.Map;

/**
 * The exporter itself: build and placement, samples taken and how long and how late they ran, and the
 * health of every source (one failing source is exposed here, never a failed scrape).
 *
 * <p>Usage: {@code SelfMetrics.info(families, info, refusals); SelfMetrics.write(families, published);}
 */
final class SelfMetrics {
  static final Family BUILD_INFO = Family.gauge("headroom_build_info", "Build of this exporter.");
  static final Family PEER_INFO = Family.gauge("headroom_peer_info", "The operator's placement of this routing peer.");
  static final Family SAMPLES = Family.counter("headroom_samples", "Samples taken.");
  static final Family SAMPLE_DURATION = Family.gauge("headroom_sample_duration_seconds", "Wall time of the last sample.");
  static final Family LAST_SAMPLE = Family.gauge("headroom_last_sample_timestamp_seconds", "Unix time of the last complete sample.");
  static final Family SOURCE_UP = Family.gauge("headroom_source_up", "1 when the last read of the source worked.");
  static final Family SOURCE_ERRORS = Family.counter("headroom_source_errors", "Failed reads per source.");
  static final Family LATENESS = Family.histogram("headroom_sample_lateness_seconds",
      "How late each sample started against its planned start (a busy peer delays the sampling thread).");
  static final Family SKIPPED = Family.counter("headroom_samples_skipped",
      "Planned samples skipped because a later one was already due.");
  static final Family REFUSED = Family.counter("headroom_http_requests_refused",
      "HTTP requests and connections refused without an ordinary answer, per reason.");
  private static final Refusals.Reason[] REASONS = Refusals.Reason.values();

  private static final double[] LATENESS_BOUNDS = SamplerTiming.upperBounds();

  private SelfMetrics() {}

  /** What is known before the first sample: build, placement, and the refusals, every reason from 0. */
  static void info(Families f, HeadroomMetrics.ExporterInfo info, Refusals refusals) {
    f.gauge(BUILD_INFO, 1, "version", info.version());
    f.gauge(PEER_INFO, 1, "network", info.network(), "site", info.site());
    for (Refusals.Reason r : REASONS) {
      f.counter(REFUSED, refusals.total(r), "reason", r.label());
    }
  }

  static void write(Families f, Published p) {
    Sample s = p.sample();
    f.counter(SAMPLES, s.sequence());
    f.gauge(SAMPLE_DURATION, s.durationSeconds());
    f.gauge(LAST_SAMPLE, s.wallMillis() / 1000.0);
    for (Map.Entry<String, SourceHealth> e : s.sources().entrySet()) {
      f.gauge(SOURCE_UP, e.getValue().up() ? 1 : 0, "source", e.getKey());
      f.counter(SOURCE_ERRORS, e.getValue().errors(), "source", e.getKey());
    }
    // The state file of observed ceilings is a source too: unwritable, learning goes on in memory.
    Learned.Store st = p.learned().store();
    if (!st.file().isEmpty()) {
      f.gauge(SOURCE_UP, st.up() ? 1 : 0, "source", "state");
      f.counter(SOURCE_ERRORS, st.errors(), "source", "state");
    }
    SamplerTiming t = p.timing();
    f.histogram(LATENESS, LATENESS_BOUNDS, t.perBucket(), t.lateSecondsSum());
    f.counter(SKIPPED, t.skipped());
  }
}
