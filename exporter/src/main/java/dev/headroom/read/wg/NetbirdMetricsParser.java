package dev.headroom.read.wg;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Parses the Prometheus text exposition format (0.0.4) that NetBird's local metrics endpoint serves into a
 * {@link NetbirdMetrics}.
 *
 * <p>NetBird's collector ({@code client/internal/localmetrics/localmetrics.go}, netbirdio/netbird PR #6689) writes
 * gauges, read here:
 * <ul>
 *   <li>{@code netbird_peers}: peers known, connected or not;
 *   <li>{@code netbird_peers_connected{connection_type="p2p"|"relay"}}: connected peers by type, both always
 *       present (0 when none);
 *   <li>{@code netbird_peer_latency_seconds{peer="<fqdn>"}}: one series per P2P peer with a latency above 0.
 * </ul>
 * The same page carries {@code netbird_management_connected}, {@code netbird_signal_connected} (1 or 0), and
 * histograms of connection setup, sync and login durations
 * ({@code netbird_peer_connection_stage_duration_seconds}, {@code netbird_sync_duration_seconds},
 * {@code netbird_sync_phase_duration_seconds}, {@code netbird_login_duration_seconds}); their lines, and any
 * other family, are checked for syntax and otherwise ignored.
 *
 * <p>client_java has writers for this format but no parser, hence this one: a pure function of the text, strict
 * about syntax (a broken line means a broken page) and about the families it reads, lenient about the rest.
 *
 * <p>Usage: {@code NetbirdMetrics m = NetbirdMetricsParser.parse(body);}
 */
public final class NetbirdMetricsParser {

  static final String PEERS = "netbird_peers";
  static final String PEERS_CONNECTED = "netbird_peers_connected";
  static final String PEER_LATENCY = "netbird_peer_latency_seconds";

  /** What Go's ParseFloat takes and Prometheus writes, bar the special values handled separately. */
  private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

  /** One sample line: metric name, labels, value (an optional timestamp is checked and dropped). */
  private record Sample(String name, Map<String, String> labels, double value) {}

  private NetbirdMetricsParser() {}

  /**
   * @throws IllegalArgumentException a line that is not a sample or comment, a value that is not a number, a
   *     peer count that is not a whole number {@code >= 0} (each naming the line number); or no
   *     {@code netbird_peers} / {@code netbird_peers_connected} at all, which NetBird always writes, so the text
   *     came from something else
   */
  public static NetbirdMetrics parse(String text) {
    Integer total = null;
    long connected = 0;
    int p2p = 0;
    int relayed = 0;
    Set<String> typesSeen = new HashSet<>();
    List<NetbirdMetrics.PeerLatency> latencies = new ArrayList<>();

    List<String> lines = text.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      int lineNo = i + 1;
      String line = lines.get(i).strip();
      // # HELP, # TYPE and any other comment: the families read are known by name, so their types need no check.
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      Sample s = sample(line, lineNo);
      switch (s.name()) {
        case PEERS -> {
          if (total != null) {
            throw bad(lineNo, "a second " + PEERS + " sample");
          }
          total = count(s, lineNo);
        }
        case PEERS_CONNECTED -> {
          String type = s.labels().get("connection_type");
          if (type == null) {
            // The netbird-api-exporter (management API side) uses this name too, labelled connected="true|false".
            throw bad(lineNo, PEERS_CONNECTED + " has no connection_type label; NetBird's client labels it p2p or "
                + "relay (is this another exporter, e.g. netbird-api-exporter?)");
          }
          if (!typesSeen.add(type)) {
            throw bad(lineNo, "a second " + PEERS_CONNECTED + " sample for connection_type=\"" + type + "\"");
          }
          int n = count(s, lineNo);
          connected += n;
          if (type.equals("p2p")) {
            p2p = n;
          } else if (type.equals("relay")) {
            relayed = n;
          }
          // Any other type: a later NetBird's; counted as connected, of unknown type.
        }
        case PEER_LATENCY -> {
          // NetBird writes only latencies above 0 (0 = not measured yet); NaN or an infinity is no measurement either.
          if (Double.isFinite(s.value()) && s.value() > 0) {
            latencies.add(new NetbirdMetrics.PeerLatency(s.labels().getOrDefault("peer", ""), s.value()));
          }
        }
        default -> {
          // the histograms and anything a later NetBird adds
        }
      }
    }
    if (total == null && typesSeen.isEmpty()) {
      throw new IllegalArgumentException("no " + PEERS + " or " + PEERS_CONNECTED
          + " sample, which NetBird's local metrics always have: is this NetBird's endpoint?");
    }
    if (connected > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(PEERS_CONNECTED + " adds up to " + connected + ", too many peers");
    }
    return new NetbirdMetrics(total == null ? 0 : total, (int) connected, p2p, relayed, latencies);
  }

  /** A peer count: NetBird writes {@code float64(n)}, so anything but a whole number {@code >= 0} is not one. */
  private static int count(Sample s, int lineNo) {
    double v = s.value();
    if (!(v >= 0 && v <= Integer.MAX_VALUE && v == Math.rint(v))) {
      throw bad(lineNo, s.name() + " is " + v + ", expected a whole number of peers >= 0");
    }
    return (int) v;
  }

  /**
   * {@code name[{label="value",...}] value [timestamp]}, blanks allowed between tokens as Prometheus's own
   * parser allows them. Label values may hold the escapes {@code \\}, {@code \"} and {@code \n}.
   */
  private static Sample sample(String line, int lineNo) {
    int len = line.length();
    int i = 0;
    while (i < len && isNameChar(line.charAt(i), i == 0, true)) {
      i++;
    }
    if (i == 0) {
      throw bad(lineNo, "expected a metric name, got '" + excerpt(line) + "'");
    }
    String name = line.substring(0, i);
    i = skipBlanks(line, i);

    Map<String, String> labels = Map.of();
    if (i < len && line.charAt(i) == '{') {
      labels = new LinkedHashMap<>();
      i++;
      while (true) {
        i = skipBlanks(line, i);
        if (i < len && line.charAt(i) == '}') {
          i++;
          break;
        }
        int start = i;
        while (i < len && isNameChar(line.charAt(i), i == start, false)) {
          i++;
        }
        if (i == start) {
          throw bad(lineNo, "expected a label name or '}' in the labels of " + name);
        }
        String label = line.substring(start, i);
        i = skipBlanks(line, i);
        if (i >= len || line.charAt(i) != '=') {
          throw bad(lineNo, "expected '=' after label " + label + " of " + name);
        }
        i = skipBlanks(line, i + 1);
        if (i >= len || line.charAt(i) != '"') {
          throw bad(lineNo, "expected a quoted value for label " + label + " of " + name);
        }
        StringBuilder value = new StringBuilder();
        i++;
        while (true) {
          if (i >= len) {
            throw bad(lineNo, "the value of label " + label + " of " + name + " has no closing quote");
          }
          char c = line.charAt(i++);
          if (c == '"') {
            break;
          }
          if (c == '\\') {
            char e = i < len ? line.charAt(i++) : ' ';
            switch (e) {
              case '\\' -> value.append('\\');
              case '"' -> value.append('"');
              case 'n' -> value.append('\n');
              default -> throw bad(lineNo, "invalid escape '\\" + e + "' in the value of label " + label + " of "
                  + name);
            }
          } else {
            value.append(c);
          }
        }
        if (labels.put(label, value.toString()) != null) {
          throw bad(lineNo, "label " + label + " given twice in " + name);
        }
        i = skipBlanks(line, i);
        if (i < len && line.charAt(i) == ',') {
          i++;
        } else if (i < len && line.charAt(i) == '}') {
          i++;
          break;
        } else {
          throw bad(lineNo, "expected ',' or '}' after label " + label + " of " + name);
        }
      }
      i = skipBlanks(line, i);
    }

    int start = i;
    while (i < len && !isBlank(line.charAt(i))) {
      i++;
    }
    if (i == start) {
      throw bad(lineNo, name + " has no value");
    }
    double value = number(line.substring(start, i), name, lineNo);

    i = skipBlanks(line, i);
    if (i < len) {
      start = i;
      while (i < len && !isBlank(line.charAt(i))) {
        i++;
      }
      String ts = line.substring(start, i);
      try {
        Long.parseLong(ts);
      } catch (NumberFormatException e) {
        throw bad(lineNo, "the timestamp of " + name + " is '" + excerpt(ts) + "', expected integer milliseconds");
      }
      if (skipBlanks(line, i) < len) {
        throw bad(lineNo, "unexpected text after the timestamp of " + name + ": '"
            + excerpt(line.substring(skipBlanks(line, i))) + "'");
      }
    }
    return new Sample(name, labels, value);
  }

  /** A sample value as Go writes it: a decimal, {@code NaN}, {@code +Inf} or {@code -Inf}. */
  private static double number(String s, String name, int lineNo) {
    String u = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
    if (u.equalsIgnoreCase("inf") || u.equalsIgnoreCase("infinity")) {
      return s.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (u.equalsIgnoreCase("nan")) {
      return Double.NaN;
    }
    // Java's own parseDouble also takes "1d", "0x1p3" and the like, which no exposition holds: check first.
    if (!DECIMAL.matcher(s).matches()) {
      throw bad(lineNo, "the value of " + name + " is '" + excerpt(s) + "', not a number");
    }
    return Double.parseDouble(s);
  }

  /** Metric names may hold colons, label names may not; neither starts with a digit. */
  private static boolean isNameChar(char c, boolean first, boolean metric) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (metric && c == ':')
        || (!first && c >= '0' && c <= '9');
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t';
  }

  private static int skipBlanks(String s, int i) {
    while (i < s.length() && isBlank(s.charAt(i))) {
      i++;
    }
    return i;
  }

  private static String excerpt(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }

  private static IllegalArgumentException bad(int lineNo, String what) {
    return new IllegalArgumentException("line " + lineNo + ": " + what);
  }
}
