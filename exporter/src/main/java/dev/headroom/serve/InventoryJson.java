package dev.headroom.serve;

import dev.headroom.judge.NetworkDesign;
import dev.headroom.json.JsonWriter;
import dev.headroom.read.netbird.Discovery;
import dev.headroom.read.netbird.Inventory;
import dev.headroom.read.netbird.Targets;
import java.util.List;
import java.util.Map;

/**
 * The documents {@code headroom discover} serves: the Prometheus HTTP service discovery list ({@link #serviceDiscovery},
 * {@code /sd}) and the inventory with the design judged ({@link #inventory}, {@code /api/v1/inventory}). The peers'
 * groups are wrapped in commas as Prometheus's own discoveries do for tags, so a relabel regex can match
 * {@code .*,name,.*}.
 *
 * <p>Usage: {@code String sd = InventoryJson.serviceDiscovery(inventory, targets);}
 */
public final class InventoryJson {
  /** The {@code __meta_} prefix of every label served. */
  public static final String META = "__meta_netbird_";

  private InventoryJson() {}

  /** One {@code {"targets": [...], "labels": {...}}} per (routing peer, Network). */
  public static String serviceDiscovery(Inventory inventory, Targets targets) {
    JsonWriter w = new JsonWriter().array();
    for (Targets.Entry e : targets.entries(inventory)) {
      Inventory.Network n = e.network();
      Inventory.Router r = e.router();
      Inventory.Peer p = r.peer();
      w.object().name("targets").array().value(e.target()).end().name("labels").object()
          .field(META + "network_name", n.name())
          .field(META + "network_id", n.id())
          .field(META + "network_source", n.source().label())
          .field(META + "router_id", r.routerId())
          .field(META + "router_metric", Integer.toString(r.metric()))
          .field(META + "router_enabled", Boolean.toString(r.enabled()))
          .field(META + "router_masquerade", Boolean.toString(r.masquerade()))
          .field(META + "peer_id", p.id())
          .field(META + "peer_name", p.name())
          .field(META + "peer_hostname", p.hostname())
          .field(META + "peer_ip", p.ip())
          .field(META + "peer_dns_label", p.dnsLabel())
          .field(META + "peer_connected", Boolean.toString(p.connected()))
          .field(META + "peer_groups", p.groups().isEmpty() ? "" : "," + String.join(",", p.groups()) + ",")
          .end().end();
    }
    return w.end().toString();
  }

  /** Each Network with its routers, the primary, and the design rules it breaks; with the refresh's state. */
  public static String inventory(Discovery.State state, Targets targets, long nowMillis) {
    JsonWriter w = new JsonWriter().object();
    Discovery.Snapshot s = state.snapshot();
    w.field("refreshed_at", s == null ? Double.NaN : s.refreshedAtMillis() / 1000.0);
    w.field("age_seconds", s == null ? Double.NaN : (nowMillis - s.refreshedAtMillis()) / 1000.0);
    w.field("failures_in_a_row", state.failuresInARow());
    w.field("last_error", state.lastError());
    w.name("networks").array();
    if (s != null) {
      for (NetworkDesign d : NetworkDesign.judge(s.inventory())) {
        Inventory.Network n = d.network();
        w.object().field("name", n.name()).field("id", n.id()).field("source", n.source().label())
            .field("enabled_routers", n.enabled().size())
            .field("primary", d.primary().map(r -> r.peer().name()).orElse(null));
        w.name("routers").array();
        for (Inventory.Router r : n.routers()) {
          w.object().field("router_id", r.routerId()).field("peer", r.peer().name())
              .field("peer_id", r.peer().id()).field("target", targets.of(r.peer()).orElse(null))
              .field("metric", r.metric()).field("enabled", r.enabled()).field("masquerade", r.masquerade())
              .field("connected", r.peer().connected())
              .field("primary", d.primary().filter(x -> x == r).isPresent()).end();
        }
        w.end().name("problems").array();
        for (NetworkDesign.Problem p : d.problems()) {
          w.object().field("problem", p.label()).field("words", p.words());
          if (p == NetworkDesign.Problem.SHARED_BOX) {
            w.name("shared_boxes").object();
            for (Map.Entry<String, List<String>> b : d.sharedBoxes().entrySet()) {
              w.name(b.getKey()).array();
              b.getValue().forEach(w::value);
              w.end();
            }
            w.end();
          }
          w.end();
        }
        w.end().end();
      }
    }
    return w.end().end().toString();
  }
}
