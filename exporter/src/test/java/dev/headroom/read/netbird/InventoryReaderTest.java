package dev.headroom.read.netbird;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.netbird.NetbirdApi.ApiException;
import dev.headroom.read.netbird.NetbirdApi.Endpoint;
import dev.headroom.read.netbird.NetbirdApi.Outcome;
import dev.headroom.testing.NetbirdApiStandIn;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InventoryReaderTest {
  static final String TOKEN = "nbp_Zq3standInTokenNeverShown0123456789";
  private final NetbirdApiStandIn api = NetbirdApiStandIn.start(TOKEN);
  private final List<String> inconsistencies = new ArrayList<>();

  @AfterEach
  void stop() {
    api.close();
  }

  InventoryReader reader(Duration timeout) throws Exception {
    return new InventoryReader(new NetbirdApi(api.url(), TOKEN, Optional.empty(), timeout), inconsistencies::add);
  }

  static Inventory.Network network(Inventory i, String name) {
    return i.networks().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
  }

  static Map<String, Inventory.Router> byPeer(Inventory.Network n) {
    return n.routers().stream().collect(Collectors.toMap(r -> r.peer().name(), r -> r));
  }

  @Test
  void routersByPeerAndByPeerGroupBecomeTheirNetworksRoutingPeers() throws Exception {
    Inventory i = reader(Duration.ofSeconds(10)).read();
    Inventory.Network east = network(i, "dc-east");
    assertEquals("net-east", east.id());
    assertEquals(Inventory.Source.NETWORKS, east.source());
    Map<String, Inventory.Router> r = byPeer(east);
    assertEquals(Map.of("router-east-1", 100, "router-east-2", 200),
        Map.of("router-east-1", r.get("router-east-1").metric(), "router-east-2", r.get("router-east-2").metric()));
    assertEquals("r-east-2", r.get("router-east-2").routerId(), "router-east-2 comes through peer group east-routers");
    assertEquals(List.of("All", "east-routers"), r.get("router-east-2").peer().groups());
    assertEquals("100.64.0.12", r.get("router-east-2").peer().ip());
    assertEquals("router-east-2.netbird.cloud", r.get("router-east-2").peer().dnsLabel());
    assertEquals(List.of("router-west-1"), List.copyOf(byPeer(network(i, "dc-west")).keySet()));
    assertFalse(byPeer(network(i, "dc-west")).get("router-west-1").peer().connected());
    assertEquals(5, i.peersListed());
    assertTrue(inconsistencies.isEmpty(), inconsistencies.toString());
  }

  @Test
  void aPeerRoutingTwoNetworksIsInBoth() throws Exception {
    Inventory i = reader(Duration.ofSeconds(10)).read();
    assertEquals(100, byPeer(network(i, "dc-east")).get("router-east-1").metric());
    assertEquals(50, byPeer(network(i, "lab")).get("router-east-1").metric());
    assertFalse(byPeer(network(i, "lab")).get("router-lab-1").enabled(), "a disabled router stays listed, disabled");
  }

  @Test
  void olderRoutesAreNetworksNamedByTheirNetworkId() throws Exception {
    Inventory.Network office = network(reader(Duration.ofSeconds(10)).read(), "office-lan");
    assertEquals("route-office", office.id());
    assertEquals(Inventory.Source.ROUTES, office.source());
    assertEquals(9999, office.routers().get(0).metric());
    assertEquals("router-lab-1", office.routers().get(0).peer().name());
  }

  @Test
  void threeThousandPeersAreReadInFiveCalls() throws Exception {
    StringBuilder peers = new StringBuilder("[");
    StringBuilder members = new StringBuilder("[");
    for (int n = 0; n < 3000; n++) {
      String id = "p-gen-" + n;
      peers.append(n == 0 ? "" : ",").append(String.format(java.util.Locale.ROOT, "{\"id\":\"%s\",\"name\":\"edge-%d\","
          + "\"created_at\":\"2026-11-02T09:00:35Z\",\"ip\":\"100.65.%d.%d\",\"connection_ip\":\"198.51.100.1\","
          + "\"connected\":true,\"last_seen\":\"2026-12-07T05:00:26Z\",\"os\":\"Linux\",\"kernel_version\":\"6.1\","
          + "\"geoname_id\":0,\"version\":\"0.36.5\",\"groups\":[{\"id\":\"g-edge\",\"name\":\"edge\","
          + "\"peers_count\":40,\"resources_count\":0}],\"ssh_enabled\":false,\"user_id\":\"\",\"hostname\":\"edge-%d\","
          + "\"ui_version\":\"\",\"dns_label\":\"edge-%d.netbird.cloud\",\"login_expiration_enabled\":false,"
          + "\"login_expired\":false,\"last_login\":\"2026-11-02T09:00:35Z\",\"inactivity_expiration_enabled\":false,"
          + "\"approval_required\":false,\"country_code\":\"DE\",\"city_name\":\"Berlin\",\"serial_number\":\"\","
          + "\"extra_dns_labels\":[],\"ephemeral\":false,\"accessible_peers_count\":3000}", id, n, n / 250, n % 250, n, n));
      if (n < 40) {
        members.append(n == 0 ? "" : ",").append("{\"id\":\"").append(id).append("\",\"name\":\"edge-").append(n).append("\"}");
      }
    }
    api.answer("/api/peers", 200, peers.append("]").toString());
    api.answer("/api/groups", 200, "[{\"id\":\"g-edge\",\"name\":\"edge\",\"peers_count\":40,\"resources_count\":0,"
        + "\"issued\":\"api\",\"peers\":" + members.append("]") + ",\"resources\":[]}]");
    api.answer("/api/networks", 200, "[{\"id\":\"net-edge\",\"name\":\"edge\",\"description\":\"\","
        + "\"routers\":[\"r-edge\"],\"routing_peers_count\":40,\"resources\":[],\"policies\":[]}]");
    api.answer("/api/networks/routers", 200, "[{\"id\":\"r-edge\",\"peer_groups\":[\"g-edge\"],\"metric\":9999,"
        + "\"masquerade\":true,\"enabled\":true}]");
    api.answer("/api/routes", 200, "[]");
    Inventory i = reader(Duration.ofSeconds(30)).read();
    assertEquals(3000, i.peersListed());
    assertEquals(40, network(i, "edge").routers().size());
    assertEquals(5, api.requests().size(), "one call per list endpoint, none per peer: " + api.requests());
  }

  @Test
  void aServerWithoutTheRoutersListIsAskedPerNetwork() throws Exception {
    api.answer("/api/networks/routers", 404, "{\"message\":\"not found\"}");
    String all = NetbirdApiStandIn.fixture("routers.json");
    api.answer("/api/networks/net-east/routers", 200, "[" + all.substring(all.indexOf('{'), all.indexOf("},") + 1) + "]");
    api.answer("/api/networks/net-west/routers", 200, "[]");
    api.answer("/api/networks/net-lab/routers", 200, "[]");
    Inventory i = reader(Duration.ofSeconds(10)).read();
    assertEquals(List.of("router-east-1"), List.copyOf(byPeer(network(i, "dc-east")).keySet()));
    assertTrue(inconsistencies.stream().anyMatch(m -> m.contains("r-east-2")), inconsistencies.toString());
  }

  @Test
  void onlyGetsWithTheTokenAsAuthorization() throws Exception {
    reader(Duration.ofSeconds(10)).read();
    assertEquals(5, api.requests().size());
    for (NetbirdApiStandIn.Request r : api.requests()) {
      assertEquals("GET", r.method());
      assertEquals("Token " + TOKEN, r.authorization());
    }
  }

  @Test
  void aFieldGoneIsNamedWithItsEndpointAndCounted() throws Exception {
    api.answer("/api/peers", 200, NetbirdApiStandIn.fixture("peers.json")
        .replaceFirst("\"dns_label\": \"router-east-2.netbird.cloud\",", "\"dns_name\": \"router-east-2.netbird.cloud\","));
    InventoryReader reader = reader(Duration.ofSeconds(10));
    ApiException e = assertThrows(ApiException.class, reader::read);
    assertEquals(Outcome.SCHEMA, e.outcome());
    assertTrue(e.getMessage().startsWith("GET /api/peers: "), e.getMessage());
    assertTrue(e.getMessage().contains("[1].dns_label is missing"), e.getMessage());
    assertEquals(1, reader.requests(Endpoint.PEERS, Outcome.SCHEMA));
  }

  @Test
  void aFieldOfAnotherTypeIsNamed() throws Exception {
    api.answer("/api/networks/routers", 200, NetbirdApiStandIn.fixture("routers.json")
        .replaceFirst("\"metric\": 100", "\"metric\": \"100\""));
    ApiException e = assertThrows(ApiException.class, reader(Duration.ofSeconds(10))::read);
    assertEquals(Outcome.SCHEMA, e.outcome());
    assertTrue(e.getMessage().contains("GET /api/networks/routers") && e.getMessage().contains("[0].metric: expected an integer, got a string"),
        e.getMessage());
  }

  @Test
  void aRefusedTokenIsUnauthorized() throws Exception {
    InventoryReader reader = new InventoryReader(new NetbirdApi(api.url(), "nbp_wrong", Optional.empty(),
        Duration.ofSeconds(10)), inconsistencies::add);
    ApiException e = assertThrows(ApiException.class, reader::read);
    assertEquals(Outcome.UNAUTHORIZED, e.outcome());
    assertEquals(401, e.status());
    assertTrue(e.getMessage().startsWith("GET /api/networks: 401 Unauthorized"), e.getMessage());
    assertFalse(e.getMessage().contains("nbp_wrong"));
    assertEquals(1, reader.requests(Endpoint.NETWORKS, Outcome.UNAUTHORIZED));
  }

  @Test
  void a429CarriesItsRetryAfter() throws Exception {
    api.answer("/api/peers", new NetbirdApiStandIn.Answer(429, "{}", Map.of("Retry-After", "42"), 0));
    InventoryReader reader = reader(Duration.ofSeconds(10));
    ApiException e = assertThrows(ApiException.class, reader::read);
    assertEquals(Outcome.RATE_LIMITED, e.outcome());
    assertEquals(Optional.of(Duration.ofSeconds(42)), e.retryAfter());
    assertEquals(1, reader.requests(Endpoint.PEERS, Outcome.RATE_LIMITED));
    assertEquals(1, reader.requests(Endpoint.NETWORKS, Outcome.OK));
  }

  @Test
  void a500IsAServerError() throws Exception {
    api.answer("/api/groups", 500, "{\"message\":\"internal\"}");
    InventoryReader reader = reader(Duration.ofSeconds(10));
    ApiException e = assertThrows(ApiException.class, reader::read);
    assertEquals(Outcome.SERVER_ERROR, e.outcome());
    assertEquals(1, reader.requests(Endpoint.GROUPS, Outcome.SERVER_ERROR));
  }

  @Test
  void aSlowAnswerTimesOut() throws Exception {
    api.answer("/api/routes", new NetbirdApiStandIn.Answer(200, "[]", Map.of(), 5_000));
    InventoryReader reader = reader(Duration.ofMillis(300));
    ApiException e = assertThrows(ApiException.class, reader::read);
    assertEquals(Outcome.TIMEOUT, e.outcome());
    assertTrue(e.getMessage().startsWith("GET /api/routes: "), e.getMessage());
    assertEquals(1, reader.requests(Endpoint.ROUTES, Outcome.TIMEOUT));
  }

  @Test
  void retryAfterReadsSecondsAndDates() {
    assertEquals(Optional.of(Duration.ofSeconds(7)), NetbirdApi.retryAfter(" 7 "));
    assertEquals(Optional.of(Duration.ZERO), NetbirdApi.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT"));
    assertEquals(Optional.empty(), NetbirdApi.retryAfter("soon"));
  }
}
