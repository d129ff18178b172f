package dev.headroom.read.netbird;

import dev.headroom.json.Json;
import dev.headroom.read.netbird.ApiSchema.SchemaException;
import dev.headroom.read.netbird.NetbirdApi.ApiException;
import dev.headroom.read.netbird.NetbirdApi.Endpoint;
import dev.headroom.read.netbird.NetbirdApi.Outcome;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Reads the whole routing inventory in five list calls, whatever the account's size: Networks, all their routers,
 * the older routes, peers and groups (the list endpoints are not paged). A server without
 * {@code GET /api/networks/routers} (it answers 404) is asked per Network instead. Every request is counted by
 * endpoint and {@link Outcome}; the first failure ends the read with an {@link ApiException}, so a partial answer
 * never becomes an inventory.
 *
 * <p>Usage: {@code Inventory i = new InventoryReader(api, log::warn).read();}
 */
public final class InventoryReader {
  private final NetbirdApi api;
  private final Consumer<String> inconsistency;
  private final LongAdder[][] counts = new LongAdder[Endpoint.values().length][Outcome.values().length];

  /**
   * @param inconsistency told of answers that fit the schema but not each other (a router naming a peer the peer
   *     list lacks): such a router is left out, the rest is used
   */
  public InventoryReader(NetbirdApi api, Consumer<String> inconsistency) {
    this.api = api;
    this.inconsistency = inconsistency;
    for (LongAdder[] row : counts) {
      for (int i = 0; i < row.length; i++) {
        row[i] = new LongAdder();
      }
    }
  }

  /** Requests to {@code e} that ended with {@code o}, since start. */
  public long requests(Endpoint e, Outcome o) {
    return counts[e.ordinal()][o.ordinal()].sum();
  }

  /** The inventory as NetBird has it now. */
  public Inventory read() throws ApiException, InterruptedException {
    List<ApiSchema.Network> networks = get(Endpoint.NETWORKS, Endpoint.NETWORKS.path(), ApiSchema.Network.class,
        InventoryReader::check);
    List<ApiSchema.NetworkRouter> routers = routers(networks);
    List<ApiSchema.Route> routes = get(Endpoint.ROUTES, Endpoint.ROUTES.path(), ApiSchema.Route.class,
        InventoryReader::check);
    List<ApiSchema.Peer> peers = get(Endpoint.PEERS, Endpoint.PEERS.path(), ApiSchema.Peer.class,
        InventoryReader::check);
    List<ApiSchema.Group> groups = get(Endpoint.GROUPS, Endpoint.GROUPS.path(), ApiSchema.Group.class,
        InventoryReader::check);
    return assemble(networks, routers, routes, peers, groups);
  }

  private List<ApiSchema.NetworkRouter> routers(List<ApiSchema.Network> networks)
      throws ApiException, InterruptedException {
    try {
      return get(Endpoint.ROUTERS, Endpoint.ROUTERS.path(), ApiSchema.NetworkRouter.class, InventoryReader::check);
    } catch (ApiException e) {
      if (e.status() != 404) {
        throw e;
      }
    }
    List<ApiSchema.NetworkRouter> all = new ArrayList<>();
    for (ApiSchema.Network n : networks) {
      all.addAll(get(Endpoint.ROUTERS, "/api/networks/" + n.id() + "/routers", ApiSchema.NetworkRouter.class,
          InventoryReader::check));
    }
    return all;
  }

  /** Checks one element's required fields; {@code at} is its path, e.g. {@code GET /api/peers: [12]}. */
  private interface Check<T> {
    void check(T value, String at);
  }

  private <T> List<T> get(Endpoint e, String path, Class<T> type, Check<T> check)
      throws ApiException, InterruptedException {
    String body;
    try {
      body = api.get(e, path);
    } catch (ApiException x) {
      count(e, x.outcome());
      throw x;
    }
    try {
      List<T> items = Json.readList(type, body);
      for (int i = 0; i < items.size(); i++) {
        if (items.get(i) == null) {
          throw new SchemaException("[" + i + "] is null, not an object");
        }
        check.check(items.get(i), "[" + i + "]");
      }
      count(e, Outcome.OK);
      return items;
    } catch (Json.JsonException | SchemaException x) {
      count(e, Outcome.SCHEMA);
      throw new ApiException(Outcome.SCHEMA, 200, Optional.empty(), "GET " + path + ": the answer does not fit"
          + " NetBird's schema as headroom knows it: " + x.getMessage());
    }
  }

  private void count(Endpoint e, Outcome o) {
    counts[e.ordinal()][o.ordinal()].increment();
  }

  private static void check(ApiSchema.Network n, String at) {
    ApiSchema.require(n.id(), at, "id");
    ApiSchema.require(n.name(), at, "name");
    ApiSchema.require(n.routers(), at, "routers");
  }

  private static void check(ApiSchema.NetworkRouter r, String at) {
    ApiSchema.require(r.id(), at, "id");
    ApiSchema.require(r.metric(), at, "metric");
    ApiSchema.require(r.masquerade(), at, "masquerade");
    ApiSchema.require(r.enabled(), at, "enabled");
    if (r.peer() == null && r.peer_groups() == null) {
      throw new SchemaException(at + " has neither peer nor peer_groups");
    }
  }

  private static void check(ApiSchema.Route r, String at) {
    ApiSchema.require(r.id(), at, "id");
    ApiSchema.require(r.network_id(), at, "network_id");
    ApiSchema.require(r.metric(), at, "metric");
    ApiSchema.require(r.masquerade(), at, "masquerade");
    ApiSchema.require(r.enabled(), at, "enabled");
    if (r.peer() == null && r.peer_groups() == null) {
      throw new SchemaException(at + " has neither peer nor peer_groups");
    }
  }

  private static void check(ApiSchema.Peer p, String at) {
    ApiSchema.require(p.id(), at, "id");
    ApiSchema.require(p.name(), at, "name");
    ApiSchema.require(p.ip(), at, "ip");
    ApiSchema.require(p.dns_label(), at, "dns_label");
    ApiSchema.require(p.connected(), at, "connected");
    ApiSchema.require(p.hostname(), at, "hostname");
    List<ApiSchema.GroupMinimum> groups = ApiSchema.require(p.groups(), at, "groups");
    for (int i = 0; i < groups.size(); i++) {
      ApiSchema.require(groups.get(i), at + ".groups", "[" + i + "]");
      ApiSchema.require(groups.get(i).name(), at + ".groups[" + i + "]", "name");
    }
  }

  private static void check(ApiSchema.Group g, String at) {
    ApiSchema.require(g.id(), at, "id");
    ApiSchema.require(g.name(), at, "name");
    List<ApiSchema.PeerMinimum> peers = ApiSchema.require(g.peers(), at, "peers");
    for (int i = 0; i < peers.size(); i++) {
      ApiSchema.require(peers.get(i), at + ".peers", "[" + i + "]");
      ApiSchema.require(peers.get(i).id(), at + ".peers[" + i + "]", "id");
    }
  }

  /** Joins the five answers; each (Network, peer) once, under its best router. */
  Inventory assemble(List<ApiSchema.Network> networks, List<ApiSchema.NetworkRouter> routers,
      List<ApiSchema.Route> routes, List<ApiSchema.Peer> peers, List<ApiSchema.Group> groups) {
    Map<String, Inventory.Peer> peerById = new HashMap<>();
    for (ApiSchema.Peer p : peers) {
      peerById.put(p.id(), new Inventory.Peer(p.id(), p.name(), p.hostname(), p.ip(), p.dns_label(), p.connected(),
          p.groups().stream().map(ApiSchema.GroupMinimum::name).sorted().toList()));
    }
    Map<String, ApiSchema.Group> groupById = new HashMap<>();
    groups.forEach(g -> groupById.put(g.id(), g));
    Map<String, ApiSchema.NetworkRouter> routerById = new HashMap<>();
    routers.forEach(r -> routerById.put(r.id(), r));

    List<Inventory.Network> out = new ArrayList<>();
    for (ApiSchema.Network n : networks) {
      Members members = new Members();
      for (String id : n.routers()) {
        ApiSchema.NetworkRouter r = routerById.get(id);
        if (r == null) {
          inconsistency.accept("Network '" + n.name() + "' (" + n.id() + ") lists router " + id
              + ", which GET /api/networks/routers does not: left out");
          continue;
        }
        members.add(n.name(), r.id(), r.peer(), r.peer_groups(), r.metric(), r.enabled(), r.masquerade(), peerById,
            groupById);
      }
      out.add(new Inventory.Network(n.id(), n.name(), Inventory.Source.NETWORKS, members.routers()));
    }
    for (ApiSchema.Route r : routes) {
      Members members = new Members();
      members.add(r.network_id(), r.id(), r.peer(), r.peer_groups(), r.metric(), r.enabled(), r.masquerade(),
          peerById, groupById);
      out.add(new Inventory.Network(r.id(), r.network_id(), Inventory.Source.ROUTES, members.routers()));
    }
    return new Inventory(out, peers.size());
  }

  /** One Network's routing peers being gathered: each peer once, under its best router. */
  private final class Members {
    private static final Comparator<Inventory.Router> BEST = Comparator
        .comparing((Inventory.Router r) -> !r.enabled())
        .thenComparingInt(Inventory.Router::metric)
        .thenComparing(Inventory.Router::routerId);
    private final Map<String, Inventory.Router> byPeer = new LinkedHashMap<>();

    void add(String network, String routerId, String peer, List<String> peerGroups, int metric, boolean enabled,
        boolean masquerade, Map<String, Inventory.Peer> peerById, Map<String, ApiSchema.Group> groupById) {
      List<String> peerIds = new ArrayList<>();
      if (peer != null && !peer.isEmpty()) {
        peerIds.add(peer);
      }
      for (String gid : peerGroups == null ? List.<String>of() : peerGroups) {
        ApiSchema.Group g = groupById.get(gid);
        if (g == null) {
          inconsistency.accept("'" + network + "' router " + routerId + " names peer group " + gid
              + ", which GET /api/groups does not list: left out");
          continue;
        }
        g.peers().forEach(p -> peerIds.add(p.id()));
      }
      for (String id : peerIds) {
        Inventory.Peer p = peerById.get(id);
        if (p == null) {
          inconsistency.accept("'" + network + "' router " + routerId + " names peer " + id
              + ", which GET /api/peers does not list: left out");
          continue;
        }
        Inventory.Router r = new Inventory.Router(routerId, metric, enabled, masquerade, p);
        byPeer.merge(id, r, (a, b) -> BEST.compare(a, b) <= 0 ? a : b);
      }
    }

    List<Inventory.Router> routers() {
      return byPeer.values().stream().sorted(BEST.thenComparing(r -> r.peer().name())).toList();
    }
  }
}
