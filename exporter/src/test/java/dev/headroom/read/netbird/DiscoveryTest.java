package dev.headroom.read.netbird;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.netbird.NetbirdApi.Endpoint;
import dev.headroom.read.netbird.NetbirdApi.Outcome;
import dev.headroom.testing.NetbirdApiStandIn;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DiscoveryTest {
  private final NetbirdApiStandIn api = NetbirdApiStandIn.start(InventoryReaderTest.TOKEN);
  private final AtomicLong now = new AtomicLong(1_800_000_000_000L);

  @AfterEach
  void stop() {
    api.close();
  }

  private Discovery discovery(String token) throws Exception {
    return new Discovery(new InventoryReader(new NetbirdApi(api.url(), token, Optional.empty(),
        Duration.ofMillis(500)), m -> {}), Duration.ofMinutes(1), now::get);
  }

  @Test
  void everyKindOfFailureKeepsTheLastGoodInventoryAndIsCounted() throws Exception {
    Discovery d = discovery(InventoryReaderTest.TOKEN);
    assertTrue(d.refresh().isEmpty());
    Discovery.Snapshot good = d.snapshot();
    now.addAndGet(60_000);

    api.answer("/api/peers", new NetbirdApiStandIn.Answer(429, "{}", Map.of("Retry-After", "30"), 0));
    assertEquals(Outcome.RATE_LIMITED, d.refresh().orElseThrow().outcome());
    api.answer("/api/peers", 503, "{}");
    assertEquals(Outcome.SERVER_ERROR, d.refresh().orElseThrow().outcome());
    api.answer("/api/peers", new NetbirdApiStandIn.Answer(200, "[]", Map.of(), 3_000));
    assertEquals(Outcome.TIMEOUT, d.refresh().orElseThrow().outcome());
    api.answer("/api/peers", 200, NetbirdApiStandIn.fixture("peers.json").replace("\"connected\"", "\"online\""));
    assertEquals(Outcome.SCHEMA, d.refresh().orElseThrow().outcome());
    api.reset();
    assertSame(good, d.snapshot(), "no failure replaced the inventory");
    assertEquals(4, d.state().failuresInARow());
    assertTrue(d.state().lastError().contains("connected is missing"), d.state().lastError());
    InventoryReader r = d.reader();
    assertEquals(1, r.requests(Endpoint.PEERS, Outcome.RATE_LIMITED));
    assertEquals(1, r.requests(Endpoint.PEERS, Outcome.SERVER_ERROR));
    assertEquals(1, r.requests(Endpoint.PEERS, Outcome.TIMEOUT));
    assertEquals(1, r.requests(Endpoint.PEERS, Outcome.SCHEMA));
    assertEquals(5, r.requests(Endpoint.NETWORKS, Outcome.OK));

    assertTrue(d.refresh().isEmpty(), "NetBird answers again");
    assertEquals(0, d.state().failuresInARow());
    assertEquals(now.get(), d.snapshot().refreshedAtMillis());
    assertEquals(2, d.snapshot().sequence());
  }

  @Test
  void aTokenRevokedLaterIsACountedFailureThatKeepsTheList() throws Exception {
    Discovery d = discovery(InventoryReaderTest.TOKEN);
    d.refresh();
    Discovery.Snapshot good = d.snapshot();
    api.answer("/api/networks", 401, "{\"message\":\"token invalid\"}");
    assertEquals(Outcome.UNAUTHORIZED, d.refresh().orElseThrow().outcome());
    assertSame(good, d.snapshot());
    assertEquals(1, d.reader().requests(Endpoint.NETWORKS, Outcome.UNAUTHORIZED));
  }

  @Test
  void failuresBackOffExponentiallyAndHonourRetryAfter() {
    Duration minute = Duration.ofMinutes(1);
    assertEquals(minute, Discovery.delay(minute, 0, Optional.empty()));
    assertEquals(Duration.ofSeconds(5), Discovery.delay(minute, 1, Optional.empty()));
    assertEquals(Duration.ofSeconds(10), Discovery.delay(minute, 2, Optional.empty()));
    assertEquals(Duration.ofSeconds(40), Discovery.delay(minute, 4, Optional.empty()));
    assertEquals(Duration.ofMinutes(5), Discovery.delay(minute, 12, Optional.empty()));
    assertEquals(Duration.ofSeconds(90), Discovery.delay(minute, 1, Optional.of(Duration.ofSeconds(90))));
    assertEquals(Duration.ofSeconds(10), Discovery.delay(minute, 2, Optional.of(Duration.ofSeconds(3))));
    assertEquals(Duration.ofSeconds(1), Discovery.delay(Duration.ofSeconds(1), 1, Optional.empty()));
    assertEquals(Duration.ofHours(1), Discovery.delay(Duration.ofHours(1), 30, Optional.empty()));
  }
}
