package dev.headroom.read.wg;

import dev.headroom.json.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code netbird status --json} into a {@link NetbirdStatus}.
 *
 * <p>The fields read are the components of the records below; {@code connectionType} is {@code P2P},
 * {@code Relayed} or {@code -}. Older clients (before latency was reported) have no {@code latency} and an
 * extra {@code direct} flag, and call a down peer {@code Disconnected} rather than {@code Idle}; both shapes
 * are accepted.
 *
 * <p>Only peers whose status is {@code Connected} are counted as P2P or relayed: older clients left a
 * stale {@code connectionType} on disconnected peers. Without a {@code connectionType}, {@code direct:
 * true} counts as P2P; {@code direct: false} meant "through NetBird's local proxy", which is not the
 * same as relayed, so such a peer stays of unknown type.
 *
 * <p>Usage: {@code NetbirdStatus s = NetbirdStatusParser.parse(stdout);}
 */
public final class NetbirdStatusParser {

  /** The fields read from {@code netbird status --json}; the rest of the document is ignored. */
  record Document(Peers peers, Boolean usesKernelInterface, String daemonStatus, Management management) {}

  /** Older clients say whether management is connected but have no {@code daemonStatus}. */
  record Management(Boolean connected) {}

  /** {@code details} is null when Go marshals an empty slice. */
  record Peers(Long total, Long connected, List<Detail> details) {}

  /** {@code latency} is integer nanoseconds (Go's time.Duration); {@code direct} is the older clients' flag. */
  record Detail(String fqdn, String status, String connectionType, Boolean direct, Long latency, String publicKey,
      Long transferReceived, Long transferSent, String lastWireguardHandshake, Endpoints iceCandidateEndpoint,
      List<String> networks) {}

  record Endpoints(String remote) {}

  private NetbirdStatusParser() {}

  /**
   * @throws dev.headroom.json.Json.JsonException the text is not JSON (e.g. the plain-text
   *     "Daemon status: NeedsLogin" NetBird prints instead when it is not logged in), or a field has the wrong
   *     type, naming the field
   * @throws IllegalArgumentException a count out of range, naming the field
   */
  public static NetbirdStatus parse(String json) {
    Document root = Json.read(Document.class, json);
    Peers peers = root.peers();
    List<Detail> details = peers == null || peers.details() == null ? List.of() : peers.details();

    int connectedSeen = 0;
    int p2p = 0;
    int relayed = 0;
    List<Double> latencies = new ArrayList<>();
    List<PeerTransfer> transfers = new ArrayList<>(details.size());
    for (int i = 0; i < details.size(); i++) {
      Detail d = details.get(i);
      if (d == null) {
        throw new IllegalArgumentException("peers.details[" + i + "]: expected an object, got null");
      }
      boolean isConnected = "Connected".equalsIgnoreCase(d.status());
      Connection connection = !isConnected ? Connection.UNKNOWN : Connection.ofNetbirdType(d.connectionType());
      if (connection == Connection.UNKNOWN && isConnected && Boolean.TRUE.equals(d.direct())) {
        connection = Connection.P2P;
      }
      if (d.publicKey() != null && !d.publicKey().isEmpty()) {
        String remote = d.iceCandidateEndpoint() == null ? null : d.iceCandidateEndpoint().remote();
        transfers.add(new PeerTransfer(d.publicKey(), isConnected,
            bytes(d.transferReceived(), i, "transferReceived"), bytes(d.transferSent(), i, "transferSent"),
            epochSeconds(d.lastWireguardHandshake()), remote == null || remote.isEmpty() ? null : remote,
            d.networks() == null ? 0 : d.networks().size(),
            d.fqdn() == null || d.fqdn().isBlank() ? null : d.fqdn().trim(), connection));
      }
      if (!isConnected) {
        continue;
      }
      connectedSeen++;
      if (connection == Connection.P2P) {
        p2p++;
      } else if (connection == Connection.RELAYED) {
        relayed++;
      }
      // 0 means "not measured yet", not a zero-latency peer.
      if (d.latency() != null && d.latency() > 0) {
        latencies.add(d.latency() / 1e9);
      }
    }

    int total = peers == null ? 0 : count(peers.total(), "peers.total", details.size());
    int connected = peers == null ? 0 : count(peers.connected(), "peers.connected", connectedSeen);
    boolean up = root.daemonStatus() != null
        ? "Connected".equalsIgnoreCase(root.daemonStatus())
        : root.management() != null && Boolean.TRUE.equals(root.management().connected());
    return new NetbirdStatus(total, connected, p2p, relayed, latencies,
        Boolean.TRUE.equals(root.usesKernelInterface()), up, transfers);
  }

  /**
   * Go's RFC 3339 time as Unix seconds; 0 for its zero time ({@code 0001-01-01T00:00:00Z}, never), for none, and
   * for a text that is no time (the handshake only shapes the census; it must not fail the status).
   */
  private static long epochSeconds(String rfc3339) {
    if (rfc3339 == null || rfc3339.isEmpty()) {
      return 0;
    }
    try {
      return Math.max(0, java.time.OffsetDateTime.parse(rfc3339).toEpochSecond());
    } catch (java.time.format.DateTimeParseException e) {
      return 0;
    }
  }

  /** A counter NetBird did not print is 0 (Go omits nothing here, but older shapes may lack it). */
  private static long bytes(Long v, int peer, String field) {
    if (v == null) {
      return 0;
    }
    if (v < 0) {
      throw new IllegalArgumentException("peers.details[" + peer + "]." + field + " is " + v + ", expected bytes >= 0");
    }
    return v;
  }

  private static int count(Long v, String field, int fallback) {
    if (v == null) {
      return fallback;
    }
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(field + " is " + v + ", expected a non-negative integer");
    }
    return (int) (long) v;
  }
}
