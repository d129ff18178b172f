package dev.headroom.serve.web;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BasicAuthTest {
  static final long TTL = 60_000_000_000L;
  final AtomicLong now = new AtomicLong(1_000);
  final BasicAuth auth =
      new BasicAuth(Map.of("prometheus", WebSecurityTest.SECRET_HASH, "ünï", WebSecurityTest.SECRET_HASH),
          BasicAuth.Settings.DEFAULT.withCacheTtl(Duration.ofNanos(TTL)), now::get);

  static String header(String credentials) {
    return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(UTF_8));
  }

  @Test
  void aVerifiedPasswordIsRememberedUntilTheTtl() {
    assertTrue(auth.authorized(header("prometheus:secret")));
    assertTrue(auth.authorized(header("prometheus:secret")));
    assertEquals(1, auth.bcryptRuns(), "the second scrape did not pay for bcrypt");
    now.addAndGet(TTL + 1);
    assertTrue(auth.authorized(header("prometheus:secret")));
    assertEquals(2, auth.bcryptRuns(), "after the TTL bcrypt runs again");
  }

  @Test
  void theCacheNeverAdmitsADifferentPassword() {
    assertTrue(auth.authorized(header("prometheus:secret")));
    assertFalse(auth.authorized(header("prometheus:secret2")));
    assertFalse(auth.authorized(header("prometheus:")));
    assertFalse(auth.authorized(header("prometheus:Secret")));
    assertTrue(auth.authorized(header("prometheus:secret")));
  }

  @Test
  void unknownUsersCostABcryptRunAndFail() {
    assertFalse(auth.authorized(header("root:secret")));
    assertEquals(1, auth.bcryptRuns(), "an unknown name costs as much as a known one");
  }

  @Test
  void malformedHeadersFailWithoutBcrypt() {
    for (String h : new String[] {null, "", "Basic", "Basic ", "Bearer abc", "Basic %%%", header("no-colon")}) {
      assertFalse(auth.authorized(h), String.valueOf(h));
    }
    assertEquals(0, auth.bcryptRuns());
  }

  @Test
  void schemeIsCaseInsensitiveAndPasswordsMayHoldColonsAndUtf8() {
    assertTrue(auth.authorized("basic " + header("prometheus:secret").substring(6)));
    assertTrue(auth.authorized(header("ünï:secret")));
    assertFalse(auth.authorized(header("prometheus:secret:extra")));
  }
}
