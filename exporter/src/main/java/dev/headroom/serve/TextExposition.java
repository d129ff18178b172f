package dev.headroom.serve;

import java.util.Arrays;
import java.util.List;

/**
 * Writes {@link Families} straight to bytes in the Prometheus text format 0.0.4 or OpenMetrics 1.0, exactly as
 * client_java's {@code PrometheusTextFormatWriter} and {@code OpenMetricsTextFormatWriter} write the same
 * families (names sorted, points sorted, the same escaping and number formatting; {@code
 * TextExpositionTest} holds the two side by side), without building client_java snapshots first. Other
 * families (rendered by client_java, see {@link OtherFamilies}) are merged in by name, as the registry sorts
 * them. Reuses its buffers: one instance per thread, or behind a lock.
 *
 * <p>Usage: {@code byte[] body = new TextExposition().render(families, false, OtherFamilies.NONE);}
 */
final class TextExposition {
  /** OpenMetrics's end marker. */
  static final byte[] EOF = "# EOF\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private byte[] buf = new byte[32 * 1024];
  private int len;
  private int[] familyOrder = new int[64];
  private int[] pointOrder = new int[256];
  private int[] scratch = new int[256];
  /** Doubles and longs are formatted through this, the JDK's own conversion with no String in between. */
  private final StringBuilder number = new StringBuilder(32);

  /** The exposition of {@code f} merged with {@code others}, as a new array of exactly its length. */
  byte[] render(Families f, boolean openMetrics, OtherFamilies others) {
    len = 0;
    if (familyOrder.length < f.slotCount()) {
      familyOrder = new int[f.slotCount() * 2];
    }
    if (pointOrder.length < f.pointCount()) {
      pointOrder = new int[f.pointCount() * 2];
      scratch = new int[pointOrder.length];
    }
    int n = f.sortedFamilies(familyOrder);
    int other = 0;
    List<String> otherNames = others.names();
    for (int i = 0; i < n; i++) {
      String name = f.family(familyOrder[i]).name();
      while (other < otherNames.size() && otherNames.get(other).compareTo(name) < 0) {
        others.appendTo(this, other++);
      }
      family(f, familyOrder[i], openMetrics);
    }
    while (other < otherNames.size()) {
      others.appendTo(this, other++);
    }
    if (openMetrics) {
      write(EOF, 0, EOF.length);
    }
    return Arrays.copyOf(buf, len);
  }

  private void family(Families f, int slot, boolean om) {
    Family family = f.family(slot);
    String name = family.name();
    String type = switch (family.type()) {
      case GAUGE -> "gauge";
      case COUNTER -> "counter";
      case HISTOGRAM -> "histogram";
    };
    String sampleSuffix = family.type() == Family.Type.COUNTER ? "_total" : null;
    if (om) {
      // OpenMetrics: the family's own name (a counter's without _total), TYPE before HELP.
      ascii("# TYPE ");
      ascii(name);
      write(' ');
      ascii(type);
      write('\n');
      if (!family.help().isEmpty()) {
        ascii("# HELP ");
        ascii(name);
        write(' ');
        escaped(family.help(), true);
        write('\n');
      }
    } else {
      if (!family.help().isEmpty()) {
        ascii("# HELP ");
        ascii(name);
        suffix(sampleSuffix);
        write(' ');
        escaped(family.help(), false);
        write('\n');
      }
      ascii("# TYPE ");
      ascii(name);
      suffix(sampleSuffix);
      write(' ');
      ascii(type);
      write('\n');
    }
    int points = f.sortedPoints(slot, pointOrder, scratch);
    for (int i = 0; i < points; i++) {
      int p = pointOrder[i];
      String[] labels = f.labels(p);
      if (family.type() != Family.Type.HISTOGRAM) {
        sampleName(name, sampleSuffix, labels, null, 0);
        doubleValue(f.value(p));
        write('\n');
        continue;
      }
      double[] bounds = f.upperBounds(p);
      long[] perBucket = f.perBucket(p);
      long cumulative = 0;
      for (int b = 0; b < bounds.length; b++) {
        cumulative += perBucket[b];
        sampleName(name, "_bucket", labels, "le", bounds[b]);
        longValue(cumulative);
        write('\n');
      }
      sampleName(name, "_count", labels, null, 0);
      longValue(cumulative);
      write('\n');
      sampleName(name, "_sum", labels, null, 0);
      doubleValue(f.value(p));
      write('\n');
    }
  }

  private void sampleName(String name, String suffix, String[] labels, String extraName, double extraValue) {
    ascii(name);
    suffix(suffix);
    if (labels.length > 0 || extraName != null) {
      write('{');
      for (int i = 0; i < labels.length; i += 2) {
        if (i > 0) {
          write(',');
        }
        ascii(labels[i]);
        write('=');
        write('"');
        escaped(labels[i + 1], true);
        write('"');
      }
      if (extraName != null) {
        if (labels.length > 0) {
          write(',');
        }
        ascii(extraName);
        write('=');
        write('"');
        doubleValue(extraValue);
        write('"');
      }
      write('}');
    }
    write(' ');
  }

  private void suffix(String suffix) {
    if (suffix != null) {
      ascii(suffix);
    }
  }

  /** client_java's number format: +Inf and -Inf, otherwise {@link Double#toString}'s. */
  private void doubleValue(double d) {
    if (d == Double.POSITIVE_INFINITY) {
      ascii("+Inf");
    } else if (d == Double.NEGATIVE_INFINITY) {
      ascii("-Inf");
    } else {
      number.setLength(0);
      number.append(d);
      ascii(number);
    }
  }

  private void longValue(long v) {
    number.setLength(0);
    number.append(v);
    ascii(number);
  }

  /**
   * UTF-8, escaping backslash and newline, and the double quote when {@code quote} (label values; HELP in
   * OpenMetrics). A lone surrogate becomes '?', as the JDK's encoder client_java writes through makes it.
   */
  private void escaped(String s, boolean quote) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        write('\\');
        write('\\');
      } else if (c == '\n') {
        write('\\');
        write('n');
      } else if (c == '"' && quote) {
        write('\\');
        write('"');
      } else if (c < 0x80) {
        write(c);
      } else if (c < 0x800) {
        write(0xc0 | (c >> 6));
        write(0x80 | (c & 0x3f));
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        write(0xf0 | (cp >> 18));
        write(0x80 | ((cp >> 12) & 0x3f));
        write(0x80 | ((cp >> 6) & 0x3f));
        write(0x80 | (cp & 0x3f));
      } else if (Character.isSurrogate(c)) {
        write('?');
      } else {
        write(0xe0 | (c >> 12));
        write(0x80 | ((c >> 6) & 0x3f));
        write(0x80 | (c & 0x3f));
      }
    }
  }

  /** Names, label names and numbers: ASCII by construction (client_java validates names). */
  private void ascii(CharSequence s) {
    int n = s.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      buf[len++] = (byte) s.charAt(i);
    }
  }

  private void write(int b) {
    ensure(1);
    buf[len++] = (byte) b;
  }

  void write(byte[] b, int from, int to) {
    ensure(to - from);
    System.arraycopy(b, from, buf, len, to - from);
    len += to - from;
  }

  private void ensure(int more) {
    if (len + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
    }
  }
}
