package dev.headroom.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes {@code netbird status --json} documents with every field NetBird's own {@code TestParsingToJSON} prints
 * ({@code client/status/status_test.go}), so fixtures that need moving counters keep NetBird's real shape.
 *
 * <p>Usage: {@code String json = NetbirdJson.netstack(NetbirdJson.peer("Pubkey1", 200, 100));}
 */
public final class NetbirdJson {
  private NetbirdJson() {}

  /** One peer's line: connected (P2P, or through the relay) when {@code connected} says so. */
  public record Peer(String publicKey, boolean connected, long received, long sent, boolean relayed) {}

  public static Peer peer(String key, long received, long sent) {
    return new Peer(key, true, received, sent, false);
  }

  /** A connected peer NetBird carries through its relay: no ICE pair, a relay address. */
  public static Peer relayed(String key, long received, long sent) {
    return new Peer(key, true, received, sent, true);
  }

  /** A peer NetBird lists but is not connected to: NetBird prints 0 for its counters. */
  public static Peer idle(String key) {
    return new Peer(key, false, 0, 0, false);
  }

  /** NetBird connected with no kernel interface: netstack mode. */
  public static String netstack(Peer... peers) {
    return document("Connected", true, false, List.of(peers));
  }

  /**
   * @param daemonStatus {@code Connected}, {@code Idle}, {@code NeedsLogin}, ...
   * @param managementConnected the management section's {@code connected}
   */
  public static String document(String daemonStatus, boolean managementConnected, boolean kernel, List<Peer> peers) {
    StringBuilder d = new StringBuilder();
    int connected = 0;
    List<String> details = new ArrayList<>();
    for (int i = 0; i < peers.size(); i++) {
      Peer p = peers.get(i);
      if (p.connected()) {
        connected++;
      }
      details.add(String.format(Locale.ROOT, """
          {"fqdn":"peer-%1$d.awesome-domain.com","netbirdIp":"100.90.0.%2$d","publicKey":"%3$s",\
          "status":"%4$s","lastStatusUpdate":"2026-12-01T20:00:00Z","connectionType":"%5$s",\
          "iceCandidateType":{"local":"%6$s","remote":"%6$s"},"iceCandidateEndpoint":{"local":"","remote":""},\
          "relayAddress":"%11$s","lastWireguardHandshake":"%7$s","transferReceived":%8$d,"transferSent":%9$d,\
          "latency":%10$d,"quantumResistance":false,"networks":["10.1.0.0/24"]}""",
          i + 1, i + 2, p.publicKey(), p.connected() ? "Connected" : "Idle",
          p.connected() ? (p.relayed() ? "Relayed" : "P2P") : "-", p.connected() && !p.relayed() ? "host" : "", p.connected() ? "2026-12-01T20:00:01Z" : "0001-01-01T00:00:00Z",
          p.received(), p.sent(), p.connected() ? 10_000_000 : 0,
          p.relayed() ? "rels://relay.netbird.io:443" : ""));
    }
    d.append("{\"peers\":{\"total\":").append(peers.size()).append(",\"connected\":").append(connected)
        .append(",\"details\":").append(peers.isEmpty() ? "null" : "[" + String.join(",", details) + "]").append("},");
    d.append(String.format(Locale.ROOT, """
        "cliVersion":"0.60.2","daemonVersion":"0.60.2","daemonStatus":"%s",\
        "management":{"url":"https://api.netbird.io:443","connected":%s,"error":""},\
        "signal":{"url":"https://signal.netbird.io:443","connected":%s,"error":""},\
        "relays":{"total":1,"available":1,"details":[{"uri":"rels://relay.netbird.io:443","available":true,"error":""}]},\
        "netbirdIp":"100.90.0.1/16","publicKey":"Some-Pub-Key","usesKernelInterface":%s,"wireguardPort":51820,\
        "fqdn":"router.awesome-domain.com","quantumResistance":false,"quantumResistancePermissive":false,\
        "networks":["10.10.0.0/24"],"forwardingRules":0,"dnsServers":[],"events":[],"lazyConnectionEnabled":false,\
        "profileName":"default","sshServer":{"enabled":false,"sessions":[]}}""",
        daemonStatus, managementConnected, managementConnected, kernel));
    return d.toString();
  }
}
