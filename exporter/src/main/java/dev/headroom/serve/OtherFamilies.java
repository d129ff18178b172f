package dev.headroom.serve;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The families of the registry's other collectors (client_java's {@code jvm_*} and {@code process_*}, the TLS
 * expiry gauge) rendered by client_java's own writer in one pass, and cut at family boundaries so that
 * {@link TextExposition} can merge headroom's families in between by name, as the registry's sorted scrape
 * would place them. Immutable; {@link #renderedAtNanos} lets the endpoint keep it for a while.
 *
 * <p>Usage: {@code OtherFamilies o = OtherFamilies.render(writer, registry.scrape(), escaping, false, System.nanoTime());}
 */
final class OtherFamilies {
  static final OtherFamilies NONE = new OtherFamilies(new byte[0], List.of(), new int[] {0}, 0);

  private final byte[] bytes;
  private final List<String> names;
  /** Family i is bytes[starts[i], starts[i + 1]). */
  private final int[] starts;
  final long renderedAtNanos;

  private OtherFamilies(byte[] bytes, List<String> names, int[] starts, long renderedAtNanos) {
    this.bytes = bytes;
    this.names = names;
    this.starts = starts;
    this.renderedAtNanos = renderedAtNanos;
  }

  /**
   * Renders {@code snapshots} (sorted, as a registry scrape returns them) with {@code writer}, without the
   * OpenMetrics end marker. When the one-pass text cannot be cut into exactly one piece per family (a
   * writer that adds sections of its own), each family is rendered by itself instead.
   */
  static OtherFamilies render(ExpositionFormatWriter writer, MetricSnapshots snapshots, EscapingScheme escaping,
      boolean openMetrics, long nowNanos) throws IOException {
    List<String> names = new ArrayList<>();
    for (MetricSnapshot s : snapshots) {
      if (!s.getDataPoints().isEmpty()) {
        names.add(s.getMetadata().getPrometheusName());
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(8 * 1024);
    writer.write(out, snapshots, escaping);
    byte[] all = withoutEof(out.toByteArray(), openMetrics);
    int[] starts = all == null ? null : familyStarts(all, names.size());
    if (starts != null) {
      return new OtherFamilies(all, List.copyOf(names), starts, nowNanos);
    }
    names.clear();
    out.reset();
    List<Integer> cuts = new ArrayList<>();
    for (MetricSnapshot s : snapshots) {
      if (s.getDataPoints().isEmpty()) {
        continue;
      }
      ByteArrayOutputStream one = new ByteArrayOutputStream();
      writer.write(one, MetricSnapshots.of(s), escaping);
      byte[] b = withoutEof(one.toByteArray(), openMetrics);
      if (b == null) {
        throw new IOException("the " + writer.getContentType() + " writer did not end with # EOF");
      }
      names.add(s.getMetadata().getPrometheusName());
      cuts.add(out.size());
      out.write(b);
    }
    cuts.add(out.size());
    return new OtherFamilies(out.toByteArray(), List.copyOf(names),
        cuts.stream().mapToInt(Integer::intValue).toArray(), nowNanos);
  }

  private static byte[] withoutEof(byte[] b, boolean openMetrics) {
    if (!openMetrics) {
      return b;
    }
    int n = b.length - TextExposition.EOF.length;
    if (n < 0 || !Arrays.equals(b, n, b.length, TextExposition.EOF, 0, TextExposition.EOF.length)) {
      return null;
    }
    return Arrays.copyOf(b, n);
  }

  /**
   * Where each family begins: at a comment line ({@code # HELP}, {@code # TYPE}, {@code # UNIT}) that does
   * not follow another comment line. Null unless there are exactly {@code families} of them and the text
   * begins with one.
   */
  private static int[] familyStarts(byte[] b, int families) {
    int[] starts = new int[families + 1];
    int found = 0;
    boolean previousComment = false;
    for (int line = 0; line < b.length; ) {
      int end = line;
      while (end < b.length && b[end] != '\n') {
        end++;
      }
      boolean comment = end - line >= 2 && b[line] == '#' && b[line + 1] == ' ';
      if (comment && !previousComment) {
        if (found == families) {
          return null;
        }
        starts[found++] = line;
      } else if (!comment && line == 0) {
        return null;
      }
      previousComment = comment;
      line = end + 1;
    }
    if (found != families) {
      return null;
    }
    starts[families] = b.length;
    return starts;
  }

  /** The families' sort keys (client_java's Prometheus names), in order. */
  List<String> names() {
    return names;
  }

  void appendTo(TextExposition out, int family) {
    out.write(bytes, starts[family], starts[family + 1]);
  }
}
