package dev.headroom.read.netbird;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where Prometheus finds a routing peer's exporter: its overlay IP or its DNS label, and the exporter's port
 * ({@code --discover.target-address}, {@code --discover.target-port}). The one place a target string is made, so the
 * service discovery list and the {@code instance_target} label of the inventory metrics always agree.
 *
 * <p>Usage: {@code List<Targets.Entry> e = new Targets(Targets.Address.IP, 10170).entries(inventory);}
 */
public record Targets(Address address, int port) {
  /** Which of a peer's names a target uses. */
  public enum Address {
    IP, DNS;

    public static Address parse(String v) {
      return switch (v.strip().toLowerCase(Locale.ROOT)) {
        case "ip" -> IP;
        case "dns" -> DNS;
        default -> throw new IllegalArgumentException("'" + v + "' is neither ip nor dns");
      };
    }
  }

  /** One (Network, routing peer) pair with the target that scrapes the peer: one service discovery entry. */
  public record Entry(Inventory.Network network, Inventory.Router router, String target) {}

  /** The peer's target, or empty when NetBird lists no address of that kind for it. */
  public Optional<String> of(Inventory.Peer peer) {
    String host = address == Address.IP ? peer.ip() : peer.dnsLabel();
    if (host == null || host.isBlank()) {
      return Optional.empty();
    }
    return Optional.of((host.contains(":") ? "[" + host + "]" : host) + ":" + port);
  }

  /** Every (Network, routing peer) with a target, in the inventory's order. */
  public List<Entry> entries(Inventory inventory) {
    List<Entry> out = new ArrayList<>();
    for (Inventory.Network n : inventory.networks()) {
      for (Inventory.Router r : n.routers()) {
        of(r.peer()).ifPresent(t -> out.add(new Entry(n, r, t)));
      }
    }
    return out;
  }
}
