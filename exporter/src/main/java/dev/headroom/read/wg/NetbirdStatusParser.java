package dev.headroom.read.wg;

import dev.headroom.json.JsonParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code netbird status --json} into a {@link NetbirdStatus}.
 *
 * <p>Fields read: top level {@code peers.total}, {@code peers.connected}, {@code peers.details[]},
 * {@code usesKernelInterface}, {@code netbirdIp}, {@code daemonVersion}; per peer {@code status},
 * {@code connectionType} ({@code P2P}, {@code Relayed}, {@code -}), {@code latency} (integer nanoseconds,
 * Go's {@code time.Duration}). Older clients (before latency was reported) have no {@code latency} and
 * an extra {@code direct} flag, and call a down peer {@code Disconnected} rather than {@code Idle};
 * both shapes are accepted.
 *
 * <p>Only peers whose status is {@code Connected} are counted as P2P or relayed: older clients left a
 * stale {@code connectionType} on disconnected peers. Without a {@code connectionType}, {@code direct:
 * true} counts as P2P; {@code direct: false} meant "through NetBird's local proxy", which is not the
 * same as relayed, so such a peer stays of unknown type.
 *
 * <p>Usage: {@code NetbirdStatus s = NetbirdStatusParser.parse(stdout);}
 */
public final class NetbirdStatusParser {

  private NetbirdStatusParser() {}

  /**
   * @throws dev.headroom.json.JsonParser.JsonParseException the text is not JSON (e.g. the plain-text
   *     "Daemon status: NeedsLogin" NetBird prints instead when it is not logged in)
   * @throws IllegalArgumentException JSON of an unexpected shape, naming the field
   */
  public static NetbirdStatus parse(String json) {
    Map<String, Object> root = JsonParser.parseObject(json);
    Map<String, Object> peers = object(root, "peers", "");
    List<Object> details = peers == null ? List.of() : array(peers, "details", "peers.");

    int connectedSeen = 0;
    int p2p = 0;
    int relayed = 0;
    List<Double> latencies = new ArrayList<>();
    for (int i = 0; i < details.size(); i++) {
      String where = "peers.details[" + i + "].";
      if (!(details.get(i) instanceof Map)) {
        throw new IllegalArgumentException(where.substring(0, where.length() - 1) + " is "
            + JsonParser.typeName(details.get(i)) + ", expected an object");
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> d = (Map<String, Object>) details.get(i);
      String status = string(d, "status", where);
      if (!"Connected".equalsIgnoreCase(status)) {
        continue;
      }
      connectedSeen++;
      String type = string(d, "connectionType", where);
      if ("P2P".equalsIgnoreCase(type)) {
        p2p++;
      } else if ("Relayed".equalsIgnoreCase(type)) {
        relayed++;
      } else if (Boolean.TRUE.equals(d.get("direct"))) {
        p2p++;
      }
      Object latency = d.get("latency");
      if (latency instanceof Number) {
        double ns = ((Number) latency).doubleValue();
        // 0 means "not measured yet", not a zero-latency peer.
        if (ns > 0) {
          latencies.add(ns / 1e9);
        }
      } else if (latency != null) {
        throw new IllegalArgumentException(where + "latency is " + JsonParser.typeName(latency)
            + ", expected integer nanoseconds");
      }
    }

    int total = peers == null ? 0 : count(peers, "total", "peers.", details.size());
    int connected = peers == null ? 0 : count(peers, "connected", "peers.", connectedSeen);
    Object kernel = root.get("usesKernelInterface");
    return new NetbirdStatus(total, connected, p2p, relayed, latencies,
        Boolean.TRUE.equals(kernel), stringOrEmpty(root, "netbirdIp"), stringOrEmpty(root, "daemonVersion"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Map<String, Object> m, String key, String where) {
    Object v = m.get(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof Map)) {
      throw new IllegalArgumentException(where + key + " is " + JsonParser.typeName(v) + ", expected an object");
    }
    return (Map<String, Object>) v;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> array(Map<String, Object> m, String key, String where) {
    Object v = m.get(key);
    if (v == null) {
      return List.of(); // Go marshals an empty slice as null
    }
    if (!(v instanceof List)) {
      throw new IllegalArgumentException(where + key + " is " + JsonParser.typeName(v) + ", expected an array");
    }
    return (List<Object>) v;
  }

  private static String string(Map<String, Object> m, String key, String where) {
    Object v = m.get(key);
    if (v == null) {
      return "";
    }
    if (!(v instanceof String)) {
      throw new IllegalArgumentException(where + key + " is " + JsonParser.typeName(v) + ", expected a string");
    }
    return (String) v;
  }

  private static String stringOrEmpty(Map<String, Object> m, String key) {
    Object v = m.get(key);
    return v instanceof String ? (String) v : "";
  }

  private static int count(Map<String, Object> m, String key, String where, int fallback) {
    Object v = m.get(key);
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof Long) || (Long) v < 0 || (Long) v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(where + key + " is " + v + ", expected a non-negative integer");
    }
    return (int) (long) (Long) v;
  }
}
