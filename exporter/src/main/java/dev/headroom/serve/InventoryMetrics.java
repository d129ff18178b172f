package dev.headroom.serve;

import dev.headroom.judge.NetworkDesign;
import dev.headroom.read.netbird.Discovery;
import dev.headroom.read.netbird.Inventory;
import dev.headroom.read.netbird.InventoryReader;
import dev.headroom.read.netbird.NetbirdApi.Endpoint;
import dev.headroom.read.netbird.NetbirdApi.Outcome;
import dev.headroom.read.netbird.Targets;
import dev.headroom.serve.web.Refusals;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.HashSet;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * {@code headroom discover}'s metrics: NetBird's inventory as bounded series (one per Network, and one per routing
 * peer of a Network, labelled as the relabelled scrape targets are: {@code network}, {@code netbird_peer}, and
 * {@code instance_target} equal to the served target), the guide's design problems per Network, the API requests by
 * outcome and the age of the inventory served. docs/metrics.md lists them.
 *
 * <p>Usage: {@code registry.register(new InventoryMetrics(discovery, targets, version, refusals, System::currentTimeMillis));}
 */
public final class InventoryMetrics implements MultiCollector {
  static final Family ROUTERS = Family.gauge("headroom_netbird_network_routers",
      "Enabled routing peers NetBird lists for the Network.");
  static final Family METRIC = Family.gauge("headroom_netbird_router_metric",
      "NetBird's metric of the routing peer's router in the Network; the enabled router of lowest metric routes.");
  static final Family ENABLED = Family.gauge("headroom_netbird_router_enabled",
      "1 when the routing peer's router in the Network is enabled in NetBird.");
  static final Family CONNECTED = Family.gauge("headroom_netbird_peer_connected",
      "1 when NetBird's management sees the routing peer connected.");
  static final Family NETWORKS = Family.gauge("headroom_netbird_inventory_networks",
      "Networks (and older network routes) in the inventory served.");
  static final Family TARGETS = Family.gauge("headroom_netbird_inventory_targets",
      "Service discovery entries served: one per routing peer and Network.");
  static final Family AGE = Family.gauge("headroom_netbird_inventory_age_seconds",
      "Seconds since the inventory served was read from NetBird.");
  static final Family LAST_SUCCESS = Family.gauge("headroom_netbird_inventory_last_success_timestamp_seconds",
      "When the inventory served was read from NetBird, Unix seconds.");
  static final Family REQUESTS = Family.counter("headroom_netbird_api_requests",
      "Requests to NetBird's management API, by list endpoint and outcome.");
  static final Family PROBLEMS = Family.gauge("headroom_netbird_inventory_problems",
      "1 when the Network breaks the design rule named by problem (single_router: no standby; shared_box: a"
          + " routing peer also routes another Network).");

  private final Discovery discovery;
  private final Targets targets;
  private final String version;
  private final Refusals refusals;
  private final LongSupplier wallMillis;

  public InventoryMetrics(Discovery discovery, Targets targets, String version, Refusals refusals,
      LongSupplier wallMillis) {
    this.discovery = discovery;
    this.targets = targets;
    this.version = version;
    this.refusals = refusals;
    this.wallMillis = wallMillis;
  }

  @Override
  public MetricSnapshots collect() {
    Families f = new Families();
    f.gauge(SelfMetrics.BUILD_INFO, 1, "version", version);
    for (Refusals.Reason r : Refusals.Reason.values()) {
      f.counter(SelfMetrics.REFUSED, refusals.total(r), "reason", r.label());
    }
    InventoryReader reader = discovery.reader();
    for (Endpoint e : Endpoint.values()) {
      for (Outcome o : Outcome.values()) {
        f.counter(REQUESTS, reader.requests(e, o), "endpoint", e.label(), "outcome", o.label());
      }
    }
    Discovery.Snapshot s = discovery.snapshot();
    if (s == null) {
      return f.build();
    }
    f.gauge(AGE, Math.max(0, wallMillis.getAsLong() - s.refreshedAtMillis()) / 1000.0);
    f.gauge(LAST_SUCCESS, s.refreshedAtMillis() / 1000.0);
    f.gauge(NETWORKS, s.inventory().networks().size());
    f.gauge(TARGETS, targets.entries(s.inventory()).size());
    // Two entries of one name and id would be one series twice (a route API quirk): the first is kept.
    Set<String> seen = new HashSet<>();
    for (NetworkDesign d : NetworkDesign.judge(s.inventory())) {
      Inventory.Network n = d.network();
      if (!seen.add(n.name() + "\u0000" + n.id())) {
        continue;
      }
      f.gauge(ROUTERS, n.enabled().size(), "network", n.name(), "network_id", n.id());
      for (NetworkDesign.Problem p : NetworkDesign.Problem.values()) {
        f.gauge(PROBLEMS, d.problems().contains(p) ? 1 : 0, "network", n.name(), "network_id", n.id(),
            "problem", p.label());
      }
      for (Inventory.Router r : n.routers()) {
        String target = targets.of(r.peer()).orElse("");
        String[] labels = {"network", n.name(), "network_id", n.id(), "netbird_peer", r.peer().name(),
            "instance_target", target};
        f.gauge(METRIC, r.metric(), labels);
        f.gauge(ENABLED, r.enabled() ? 1 : 0, labels);
        f.gauge(CONNECTED, r.peer().connected() ? 1 : 0, labels);
      }
    }
    return f.build();
  }
}
