package dev.headroom.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.json.Json;
import dev.headroom.read.netbird.Discovery;
import dev.headroom.read.netbird.InventoryReader;
import dev.headroom.read.netbird.NetbirdApi;
import dev.headroom.read.netbird.Targets;
import dev.headroom.serve.web.Refusals;
import dev.headroom.serve.web.WebConfig;
import dev.headroom.testing.LogCapture;
import dev.headroom.testing.NetbirdApiStandIn;
import dev.headroom.testing.Needs;
import dev.headroom.testing.Tools;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class DiscoverServerTest {
  static final String TOKEN = "nbp_Zq3standInTokenNeverShown0123456789";
  private final NetbirdApiStandIn api = NetbirdApiStandIn.start(TOKEN);
  private final AtomicLong now = new AtomicLong(1_800_000_000_000L);
  private final HttpClient http = HttpClient.newHttpClient();
  private Discovery discovery;
  private DiscoverServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    api.close();
  }

  private void start(Targets targets) throws Exception {
    discovery = new Discovery(new InventoryReader(new NetbirdApi(api.url(), TOKEN, Optional.empty(),
        Duration.ofMillis(500)), m -> discovery.inconsistency(m)), Duration.ofMinutes(1), now::get);
    Refusals refusals = new Refusals();
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(new InventoryMetrics(discovery, targets, "test", refusals, now::get));
    server = DiscoverServer.start("127.0.0.1", 0, discovery, targets, registry, WebConfig.NONE, refusals);
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> sd() throws Exception {
    HttpResponse<String> r = get("/sd");
    assertEquals(200, r.statusCode(), r.body());
    assertEquals("application/json", r.headers().firstValue("Content-Type").orElse(""));
    return (List<Map<String, Object>>) Json.tree("{\"sd\":" + r.body() + "}").get("sd");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> labels(List<Map<String, Object>> sd, String network, String peer) {
    return sd.stream().map(e -> (Map<String, String>) e.get("labels"))
        .filter(l -> l.get("__meta_netbird_network_name").equals(network) && l.get("__meta_netbird_peer_name").equals(peer))
        .findFirst().orElseThrow(() -> new AssertionError("no entry for " + peer + " in " + network + ": " + sd));
  }

  @Test
  void serviceDiscoveryListsEachRoutingPeerOncePerNetworkWithItsLabels() throws Exception {
    start(new Targets(Targets.Address.IP, 10170));
    discovery.refresh();
    List<Map<String, Object>> sd = sd();
    assertEquals(6, sd.size(), "dc-east 2, dc-west 1, lab 2, office-lan 1: " + sd);
    assertEquals(List.of("100.64.0.11:10170"), sd.get(0).get("targets"));
    assertEquals(Map.ofEntries(
        Map.entry("__meta_netbird_network_name", "dc-east"),
        Map.entry("__meta_netbird_network_id", "net-east"),
        Map.entry("__meta_netbird_network_source", "networks"),
        Map.entry("__meta_netbird_router_id", "r-east-2"),
        Map.entry("__meta_netbird_router_metric", "200"),
        Map.entry("__meta_netbird_router_enabled", "true"),
        Map.entry("__meta_netbird_router_masquerade", "true"),
        Map.entry("__meta_netbird_peer_id", "p-east-2"),
        Map.entry("__meta_netbird_peer_name", "router-east-2"),
        Map.entry("__meta_netbird_peer_hostname", "router-east-2.lan"),
        Map.entry("__meta_netbird_peer_ip", "100.64.0.12"),
        Map.entry("__meta_netbird_peer_dns_label", "router-east-2.netbird.cloud"),
        Map.entry("__meta_netbird_peer_connected", "true"),
        Map.entry("__meta_netbird_peer_groups", ",All,east-routers,")), labels(sd, "dc-east", "router-east-2"));
    assertEquals("50", labels(sd, "lab", "router-east-1").get("__meta_netbird_router_metric"),
        "the peer routing two Networks has an entry in each, with each router's metric");
    assertEquals("100", labels(sd, "dc-east", "router-east-1").get("__meta_netbird_router_metric"));
    assertEquals("false", labels(sd, "lab", "router-lab-1").get("__meta_netbird_router_enabled"));
    assertEquals("false", labels(sd, "dc-west", "router-west-1").get("__meta_netbird_peer_connected"));
    Map<String, String> office = labels(sd, "office-lan", "router-lab-1");
    assertEquals("routes", office.get("__meta_netbird_network_source"));
    assertEquals("route-office", office.get("__meta_netbird_network_id"));
  }

  @Test
  void dnsTargetsUseTheDnsLabelAndTheGivenPort() throws Exception {
    start(new Targets(Targets.Address.DNS, 9999));
    discovery.refresh();
    assertEquals(List.of("router-east-1.netbird.cloud:9999"), sd().get(0).get("targets"));
  }

  @Test
  void serviceDiscoveryAnswers503UntilTheFirstInventorySoPrometheusKeepsItsList() throws Exception {
    start(new Targets(Targets.Address.IP, 10170));
    api.answer("/api/peers", 500, "{}");
    discovery.refresh();
    HttpResponse<String> r = get("/sd");
    assertEquals(503, r.statusCode());
    assertTrue(r.body().contains("GET /api/peers: 500"), r.body());
    assertEquals(503, get("/-/ready").statusCode());
  }

  @Test
  void failuresLeaveTheServedListAsItWas() throws Exception {
    start(new Targets(Targets.Address.IP, 10170));
    discovery.refresh();
    String before = get("/sd").body();
    api.answer("/api/networks", 503, "{}");
    discovery.refresh();
    api.answer("/api/networks", 200, "[]"); // answers again, but the peers' schema changed
    api.answer("/api/peers", 200, NetbirdApiStandIn.fixture("peers.json").replace("\"ip\"", "\"ipv4\""));
    discovery.refresh();
    assertEquals(before, get("/sd").body());
    HttpResponse<String> ready = get("/-/ready");
    assertEquals(200, ready.statusCode());
    assertTrue(ready.body().contains("the last 2 refreshes failed") && ready.body().contains("[0].ip is missing"),
        ready.body());
  }

  @Test
  void metricsCarryTheInventoryLabelledAsTheRelabelledTargets() throws Exception {
    start(new Targets(Targets.Address.IP, 10170));
    discovery.refresh();
    now.addAndGet(90_000);
    api.answer("/api/groups", 429, "{}");
    discovery.refresh();
    String m = get("/metrics").body();
    for (String line : List.of(
        "headroom_netbird_network_routers{network=\"dc-east\",network_id=\"net-east\"} 2.0",
        "headroom_netbird_network_routers{network=\"lab\",network_id=\"net-lab\"} 1.0",
        "headroom_netbird_network_routers{network=\"office-lan\",network_id=\"route-office\"} 1.0",
        "headroom_netbird_router_metric{instance_target=\"100.64.0.11:10170\",netbird_peer=\"router-east-1\",network=\"lab\",network_id=\"net-lab\"} 50.0",
        "headroom_netbird_router_metric{instance_target=\"100.64.0.12:10170\",netbird_peer=\"router-east-2\",network=\"dc-east\",network_id=\"net-east\"} 200.0",
        "headroom_netbird_router_enabled{instance_target=\"100.64.0.31:10170\",netbird_peer=\"router-lab-1\",network=\"lab\",network_id=\"net-lab\"} 0.0",
        "headroom_netbird_peer_connected{instance_target=\"100.64.0.21:10170\",netbird_peer=\"router-west-1\",network=\"dc-west\",network_id=\"net-west\"} 0.0",
        "headroom_netbird_inventory_problems{network=\"dc-west\",network_id=\"net-west\",problem=\"single_router\"} 1.0",
        "headroom_netbird_inventory_problems{network=\"dc-east\",network_id=\"net-east\",problem=\"single_router\"} 0.0",
        "headroom_netbird_inventory_problems{network=\"dc-east\",network_id=\"net-east\",problem=\"shared_box\"} 1.0",
        "headroom_netbird_inventory_problems{network=\"lab\",network_id=\"net-lab\",problem=\"shared_box\"} 1.0",
        "headroom_netbird_inventory_problems{network=\"office-lan\",network_id=\"route-office\",problem=\"shared_box\"} 0.0",
        "headroom_netbird_inventory_networks 4.0",
        "headroom_netbird_inventory_targets 6.0",
        "headroom_netbird_inventory_age_seconds 90.0",
        "headroom_netbird_inventory_last_success_timestamp_seconds 1.8E9",
        "headroom_netbird_api_requests_total{endpoint=\"groups\",outcome=\"rate_limited\"} 1.0",
        "headroom_netbird_api_requests_total{endpoint=\"groups\",outcome=\"ok\"} 1.0",
        "headroom_netbird_api_requests_total{endpoint=\"networks\",outcome=\"ok\"} 2.0")) {
      assertTrue(m.contains(line + "\n"), line + " not in\n" + m);
    }
  }

  @Tag(Needs.PROMTOOL)
  @Test
  void promtoolFindsNothingToLintInTheDiscoverMetrics() throws Exception {
    start(new Targets(Targets.Address.IP, 10170));
    discovery.refresh();
    assertEquals("", Tools.promtoolCheckMetrics(get("/metrics").body()));
  }

  @Test
  @SuppressWarnings("unchecked")
  void inventoryJsonNamesThePrimaryAndTheRulesBroken() throws Exception {
    start(new Targets(Targets.Address.IP, 10170));
    discovery.refresh();
    Map<String, Object> inv = Json.tree(get("/api/v1/inventory").body());
    List<Map<String, Object>> networks = (List<Map<String, Object>>) inv.get("networks");
    Map<String, Object> lab = networks.stream().filter(n -> n.get("name").equals("lab")).findFirst().orElseThrow();
    assertEquals("router-east-1", lab.get("primary"));
    List<Map<String, Object>> problems = (List<Map<String, Object>>) lab.get("problems");
    assertEquals(List.of("single_router", "shared_box"), problems.stream().map(p -> p.get("problem")).toList());
    assertEquals(Map.of("router-east-1", List.of("dc-east")), problems.get(1).get("shared_boxes"));
    Map<String, Object> east = networks.get(0);
    assertEquals("router-east-1", east.get("primary"), "lowest metric among the enabled routers");
    assertEquals(List.of(), ((List<Object>) networks.get(0).get("problems")).stream()
        .filter(p -> ((Map<String, Object>) p).get("problem").equals("single_router")).toList());
  }

  @Test
  void theTokenIsNeverLoggedNorServed() throws Exception {
    try (LogCapture log = LogCapture.start()) {
      start(new Targets(Targets.Address.IP, 10170));
      discovery.refresh();
      api.answer("/api/networks", 401, "{\"message\":\"token invalid\"}");
      discovery.refresh();
      api.answer("/api/networks", 200, "[{\"id\":\"" + TOKEN + "\"}]"); // a field gone: the message names the path
      discovery.refresh();
      StringBuilder served = new StringBuilder();
      for (String path : List.of("/sd", "/metrics", "/", "/-/ready", "/-/healthy", "/api/v1/inventory")) {
        HttpResponse<String> r = get(path);
        served.append(r.headers().map()).append(r.body());
      }
      assertFalse(served.toString().contains(TOKEN), "the token is served");
      assertFalse(log.text().contains(TOKEN), "the token is logged");
      assertTrue(log.text().contains("GET /api/networks: 401"), log.text());
      assertTrue(log.text().contains("NetBird API schema changed: GET /api/networks: "), log.text());
    }
  }

  @Test
  void everyDiscoverFamilyIsDocumentedWithItsType() throws Exception {
    start(new Targets(Targets.Address.IP, 10170));
    discovery.refresh();
    String doc = java.nio.file.Files.readString(java.nio.file.Path.of("../docs/metrics.md"));
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("^# TYPE (headroom_\\w+) (\\w+)$",
        java.util.regex.Pattern.MULTILINE).matcher(get("/metrics").body());
    int families = 0;
    while (m.find()) {
      families++;
      assertTrue(doc.contains("| `" + m.group(1) + "` | " + m.group(2) + " |"),
          m.group(1) + " (" + m.group(2) + ") is not in docs/metrics.md");
    }
    assertTrue(families >= 12, families + " families");
  }
}
