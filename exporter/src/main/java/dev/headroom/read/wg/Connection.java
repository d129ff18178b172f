package dev.headroom.read.wg;

/**
 * How a tunnel reaches its client device: straight between the two peers (P2P), or through NetBird's relay.
 *
 * <p>NetBird says which in {@code netbird status --json} ({@code connectionType}). Without it, the WireGuard
 * endpoint tells: NetBird hands a relayed peer's packets to WireGuard through a local proxy, so the endpoint
 * WireGuard shows for that peer is on loopback. Kernel WireGuard gets {@code 127.0.0.1} (or {@code ::1}) and a
 * port of the eBPF or UDP proxy ({@code client/iface/wgproxy/ebpf}, {@code udp}); wireguard-go gets a made-up
 * {@code 127.1.x.y} address its bind maps to the relay connection ({@code wgproxy/bind}, {@code fakeAddress}).
 * A P2P peer's endpoint is the client's own outer address.
 *
 * <p>Usage: {@code Connection c = Connection.ofEndpoint("127.0.0.1:41234"); // RELAYED}
 */
public enum Connection {
  P2P("p2p"),
  RELAYED("relayed"),
  UNKNOWN("unknown");

  private final String label;

  Connection(String label) {
    this.label = label;
  }

  /** The label value: {@code p2p}, {@code relayed}, {@code unknown}. */
  public String label() {
    return label;
  }

  /** NetBird's {@code connectionType} ({@code P2P}, {@code Relayed}, {@code -}); anything else is unknown. */
  public static Connection ofNetbirdType(String connectionType) {
    if ("P2P".equalsIgnoreCase(connectionType)) {
      return P2P;
    }
    return "Relayed".equalsIgnoreCase(connectionType) ? RELAYED : UNKNOWN;
  }

  /** What a WireGuard endpoint says: loopback is NetBird's relay proxy, another address P2P, none unknown. */
  public static Connection ofEndpoint(String endpoint) {
    if (endpoint == null || endpoint.isEmpty()) {
      return UNKNOWN;
    }
    return endpoint.startsWith("127.") || endpoint.startsWith("[::1]:") ? RELAYED : P2P;
  }
}
