package dev.headroom.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class RateLimitedLogTest {
  final AtomicLong now = new AtomicLong(5_000);
  final RateLimitedLog log =
      new RateLimitedLog(LoggerFactory.getLogger(RateLimitedLogTest.class), Duration.ofSeconds(60), now::get);

  @Test
  void aRepeatedFailureIsOneLinePerIntervalWithTheCountHeldBack() {
    RuntimeException e = new IllegalStateException("queue full");
    RateLimitedLog.Line first = log.admit("reject", "request failed", e);
    assertNotNull(first);
    assertEquals("request failed: java.lang.IllegalStateException: queue full", first.text());
    for (int i = 0; i < 1000; i++) {
      now.addAndGet(1_000_000); // 1 ms apart: a flood
      assertNull(log.admit("reject", "request failed", e), "occurrence " + i + " is only counted");
    }
    now.addAndGet(Duration.ofSeconds(60).toNanos());
    RateLimitedLog.Line next = log.admit("reject", "request failed", e);
    assertNotNull(next, "the first occurrence after the interval is logged");
    assertTrue(next.text().endsWith("(and 1000 more since the last such line)"), next.text());
    assertNull(log.admit("reject", "request failed", e), "and a new interval starts");
  }

  @Test
  void onlyAKeysFirstLineCarriesTheStackTrace() {
    assertTrue(log.admit("a", "m", new RuntimeException()).first());
    now.addAndGet(Duration.ofMinutes(2).toNanos());
    assertFalse(log.admit("a", "m", new RuntimeException()).first());
  }

  @Test
  void differentKeysAreLimitedApart() {
    assertNotNull(log.admit("a", "one", null));
    assertNotNull(log.admit("b", "two", null));
    assertNull(log.admit("a", "one", null));
    assertEquals("two", log.admit("c", "two", null).text(), "no cause: the message alone");
  }

  @Test
  void keysBeyondTheBoundShareOneLimit() {
    for (int i = 0; i < RateLimitedLog.MAX_KEYS; i++) {
      assertNotNull(log.admit("k" + i, "m", null));
    }
    assertNotNull(log.admit("extra-1", "m", null), "the first key past the bound opens the shared one");
    assertNull(log.admit("extra-2", "m", null), "later ones share its limit");
  }

  @Test
  void warnAndErrorWriteAtTheirLevelOnlyWhatIsAdmitted() {
    List<String> lines = new ArrayList<>();
    Logger capture = (Logger) Proxy.newProxyInstance(Logger.class.getClassLoader(), new Class<?>[] {Logger.class},
        (proxy, method, args) -> {
          if (method.getName().equals("warn") || method.getName().equals("error")) {
            lines.add(method.getName() + " " + args[0]);
          }
          return method.getReturnType() == boolean.class ? Boolean.TRUE : null;
        });
    RateLimitedLog limited = new RateLimitedLog(capture, Duration.ofSeconds(60), now::get);
    limited.warn("w", "written", null);
    limited.warn("w", "held", null);
    limited.error("e", "written", null);
    assertEquals(List.of("warn written", "error written"), lines);
  }
}
