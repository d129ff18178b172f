package dev.headroom.serve.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FailureLimiterTest {
  static final long SIX_SECONDS = 6_000_000_000L;
  final AtomicLong now = new AtomicLong(1_000);
  final FailureLimiter limiter = new FailureLimiter(5, SIX_SECONDS, 3, now::get);

  @Test
  void aClientMayFailTheBurstThenOncePerRefill() {
    for (int i = 0; i < 5; i++) {
      assertTrue(limiter.allowed("10.0.0.1"), "attempt " + (i + 1));
      limiter.failed("10.0.0.1");
    }
    assertFalse(limiter.allowed("10.0.0.1"), "the sixth attempt in a row is refused");
    assertEquals(6, limiter.retryAfterSeconds("10.0.0.1"));
    now.addAndGet(SIX_SECONDS / 2);
    assertFalse(limiter.allowed("10.0.0.1"));
    assertEquals(3, limiter.retryAfterSeconds("10.0.0.1"));
    now.addAndGet(SIX_SECONDS / 2);
    assertTrue(limiter.allowed("10.0.0.1"), "one more after a refill period");
    limiter.failed("10.0.0.1");
    assertFalse(limiter.allowed("10.0.0.1"));
  }

  @Test
  void anotherClientIsNotHeldBackByAFloodingOne() {
    for (int i = 0; i < 50; i++) {
      limiter.failed("10.0.0.1");
    }
    assertFalse(limiter.allowed("10.0.0.1"));
    assertTrue(limiter.allowed("10.0.0.2"));
    assertEquals(0, limiter.retryAfterSeconds("10.0.0.2"));
  }

  @Test
  void ipv6AddressesOfOneSlash64ShareABucket() {
    for (int i = 0; i < 5; i++) {
      limiter.failed("2001:db8:1:2::" + Integer.toHexString(i + 1));
    }
    assertFalse(limiter.allowed("2001:db8:1:2:ffff:ffff:ffff:ffff"), "same /64, other address");
    assertTrue(limiter.allowed("2001:db8:1:3::1"), "the next /64 is another client");
    assertEquals(FailureLimiter.key("[2001:db8:1:2::9]"), FailureLimiter.key("2001:db8:1:2::1"));
  }

  @Test
  void trackedClientsAreBoundedForgettingTheLeastRecent() {
    for (int i = 0; i < 5; i++) {
      limiter.failed("10.0.0.1");
    }
    limiter.failed("10.0.0.2");
    limiter.failed("10.0.0.3");
    limiter.failed("10.0.0.4"); // a fourth client: 10.0.0.1, the least recently seen, is forgotten
    assertTrue(limiter.allowed("10.0.0.1"));
  }
}
