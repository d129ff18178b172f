package dev.headroom.read.netbird;

import java.util.List;
import java.util.Locale;

/**
 * NetBird's routing inventory at one refresh: each Network (from the Networks API, or a route of the older routes
 * API) with its routing peers. A router given by peer group stands for every peer of its groups; a peer that two
 * routers of one Network name appears once, under the router that would win (enabled, then lowest metric). A peer
 * routing two Networks appears in both. Immutable.
 *
 * <p>Usage: {@code for (Inventory.Network n : inventory.networks()) for (Inventory.Router r : n.routers()) ...}
 *
 * @param peersListed peers the account holds, routing or not
 */
public record Inventory(List<Network> networks, int peersListed) {
  public Inventory {
    networks = List.copyOf(networks);
  }

  /** Where a Network came from: the Networks API or the older routes API. */
  public enum Source {
    NETWORKS, ROUTES;

    private final String label = name().toLowerCase(Locale.ROOT);

    public String label() {
      return label;
    }
  }

  /**
   * A Network as NetBird names it. For the routes API, {@code name} is the route's {@code network_id} and {@code id}
   * the route's id.
   */
  public record Network(String id, String name, Source source, List<Router> routers) {
    public Network {
      routers = List.copyOf(routers);
    }

    /** Routers that route: the enabled ones. */
    public List<Router> enabled() {
      return routers.stream().filter(Router::enabled).toList();
    }
  }

  /** One routing peer of a Network, with the NetBird router (or route) that makes it one. */
  public record Router(String routerId, int metric, boolean enabled, boolean masquerade, Peer peer) {}

  /**
   * A peer as {@code GET /api/peers} lists it; {@code groups} are its groups' names, sorted.
   */
  public record Peer(String id, String name, String hostname, String ip, String dnsLabel, boolean connected,
      List<String> groups) {
    public Peer {
      groups = List.copyOf(groups);
    }
  }
}
