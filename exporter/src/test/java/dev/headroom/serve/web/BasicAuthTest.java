package dev.headroom.serve.web;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BasicAuthTest {
  static final long TTL = 60_000_000_000L;
  final AtomicLong now = new AtomicLong(1_000);
  /** Every hash a password was checked against, in order: one entry per bcrypt run. */
  final List<Bcrypt.Hash> bcryptRuns = new CopyOnWriteArrayList<>();
  final BasicAuth auth =
      new BasicAuth(Map.of("prometheus", WebSecurityTest.SECRET_HASH, "ünï", WebSecurityTest.SECRET_HASH),
          BasicAuth.Settings.DEFAULT.withCacheTtl(Duration.ofNanos(TTL)), now::get, new Refusals(), this::bcrypt);

  private boolean bcrypt(byte[] password, Bcrypt.Hash hash) {
    bcryptRuns.add(hash);
    return Bcrypt.verify(password, hash);
  }

  /** True when the header's credentials are let in, from one client that hits no limit. */
  private boolean authorized(String header) {
    return auth.check(header, "192.0.2.9") == BasicAuth.Decision.ALLOWED;
  }

  static String header(String credentials) {
    return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(UTF_8));
  }

  @Test
  void aVerifiedPasswordIsRememberedUntilTheTtl() {
    assertTrue(authorized(header("prometheus:secret")));
    assertTrue(authorized(header("prometheus:secret")));
    assertEquals(1, bcryptRuns.size(), "the second scrape did not pay for bcrypt");
    now.addAndGet(TTL + 1);
    assertTrue(authorized(header("prometheus:secret")));
    assertEquals(2, bcryptRuns.size(), "after the TTL bcrypt runs again");
  }

  @Test
  void theCacheNeverAdmitsADifferentPassword() {
    assertTrue(authorized(header("prometheus:secret")));
    assertFalse(authorized(header("prometheus:secret2")));
    assertFalse(authorized(header("prometheus:")));
    assertFalse(authorized(header("prometheus:Secret")));
    assertTrue(authorized(header("prometheus:secret")));
  }

  @Test
  void unknownUsersCostABcryptRunAndFail() {
    assertFalse(authorized(header("root:secret")));
    assertEquals(1, bcryptRuns.size(), "an unknown name costs as much as a known one");
  }

  @Test
  void malformedHeadersFailWithoutBcrypt() {
    for (String h : new String[] {null, "", "Basic", "Basic ", "Bearer abc", "Basic %%%", header("no-colon")}) {
      assertFalse(authorized(h), String.valueOf(h));
    }
    assertEquals(0, bcryptRuns.size());
  }

  @Test
  void schemeIsCaseInsensitiveAndPasswordsMayHoldColonsAndUtf8() {
    assertTrue(authorized("basic " + header("prometheus:secret").substring(6)));
    assertTrue(authorized(header("ünï:secret")));
    assertFalse(authorized(header("prometheus:secret:extra")));
  }

  /** bcrypt of "other", cost 5 (a second user at a higher cost than SECRET_HASH's 4). */
  static final String COST_5 = "$2b$05$CCCCCCCCCCCCCCCCCCCCC.4trLMihVaLGP9SX44qqS9WM4F0dLviS";

  @Test
  void unknownUsersAreCheckedAtTheHighestConfiguredCost() {
    BasicAuth mixed = new BasicAuth(Map.of("low", WebSecurityTest.SECRET_HASH, "high", COST_5),
        BasicAuth.Settings.DEFAULT, now::get, new Refusals(), this::bcrypt);
    assertEquals(BasicAuth.Decision.DENIED, mixed.check(header("root:secret"), "192.0.2.9"));
    assertEquals(BasicAuth.Decision.DENIED, auth.check(header("root:secret"), "192.0.2.9"));
    assertEquals(List.of(5, 4), bcryptRuns.stream().map(Bcrypt.Hash::cost).toList());
  }

  @Test
  void aClientThatKeepsFailingIsThrottledWithoutBcrypt() {
    for (int i = 0; i < BasicAuth.Settings.DEFAULT.failureBurst(); i++) {
      assertEquals(BasicAuth.Decision.DENIED, auth.check(header("prometheus:wrong" + i), "192.0.2.1"));
    }
    long runs = bcryptRuns.size();
    assertEquals(BasicAuth.Decision.THROTTLED, auth.check(header("prometheus:wrong"), "192.0.2.1"));
    assertEquals(BasicAuth.Decision.THROTTLED, auth.check(header("root:guess"), "192.0.2.1"));
    assertEquals(runs, bcryptRuns.size(), "a throttled attempt costs no bcrypt");
    assertEquals(BasicAuth.Decision.ALLOWED, auth.check(header("prometheus:secret"), "192.0.2.2"),
        "another client still logs in");
    assertEquals(BasicAuth.Decision.ALLOWED, auth.check(header("prometheus:secret"), "192.0.2.1"),
        "remembered credentials pass even from a throttled address: they need no hash");
    now.addAndGet(BasicAuth.Settings.DEFAULT.failureRefill().toNanos());
    assertEquals(BasicAuth.Decision.DENIED, auth.check(header("prometheus:wrong"), "192.0.2.1"),
        "one more attempt per refill period");
  }

  @Test
  void aRememberedPasswordStaysRememberedWhileItIsUsed() {
    assertTrue(authorized(header("prometheus:secret")));
    for (int i = 0; i < 10; i++) {
      now.addAndGet(TTL / 2);
      assertTrue(authorized(header("prometheus:secret")));
    }
    assertEquals(1, bcryptRuns.size(), "scraping every half TTL for five TTLs paid bcrypt once");
  }

  @Test
  void concurrentWrongPasswordsFromOneClientHashNoMoreThanItsFailuresAllow() throws Exception {
    // A flood's requests race between "may this client try?" and "that try failed": a request that asked
    // while the client's last allowed check was still running must not hash once that check has failed.
    int burst = BasicAuth.Settings.DEFAULT.failureBurst();
    AtomicInteger hashes = new AtomicInteger();
    BasicAuth flooded = new BasicAuth(Map.of("prometheus", WebSecurityTest.SECRET_HASH), BasicAuth.Settings.DEFAULT,
        now::get, new Refusals(), (password, hash) -> hashes.incrementAndGet() < 0);
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int round = 0; round < 2000; round++) {
        String client = "10.0." + round / 256 + "." + round % 256;
        hashes.set(0);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> flood = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          flood.add(pool.submit(() -> {
            start.await();
            while (flooded.check(header("prometheus:guess"), client) != BasicAuth.Decision.THROTTLED) {
              // DENIED and BUSY: keep flooding until the client is out of attempts (the clock stands still)
            }
            return null;
          }));
        }
        start.countDown();
        for (Future<?> f : flood) {
          f.get();
        }
        assertEquals(burst, hashes.get(), "hashes run for client " + client + " with the clock standing still");
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
