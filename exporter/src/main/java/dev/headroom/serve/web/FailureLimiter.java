package dev.headroom.serve.web;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Limits failed attempts per client with a token bucket: a client may fail {@code burst} times in a row,
 * then once per {@code refillNanos}; a client out of tokens is refused before any password hash runs.
 * IPv6 clients are grouped by /64, the smallest block one host commonly holds, so rotating addresses
 * within it gains nothing.
 *
 * <p>Usage: {@code FailureLimiter l = new FailureLimiter(10, 6_000_000_000L, 4096, System::nanoTime);
 * if (l.allowed(ip)) { if (!ok) l.failed(ip); }}
 *
 * <p>At most {@code maxClients} clients are tracked; past that the least recently seen is forgotten, so the
 * memory is bounded whatever the number of addresses.
 */
final class FailureLimiter {
  private static final class Bucket {
    double tokens;
    long at;
  }

  private final int burst;
  private final long refillNanos;
  private final LongSupplier nanoClock;
  private final Map<String, Bucket> buckets;

  FailureLimiter(int burst, long refillNanos, int maxClients, LongSupplier nanoClock) {
    if (burst < 1 || refillNanos <= 0 || maxClients < 1) {
      throw new IllegalArgumentException("burst, refill and maxClients must be positive");
    }
    this.burst = burst;
    this.refillNanos = refillNanos;
    this.nanoClock = nanoClock;
    this.buckets = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
        return size() > maxClients;
      }
    };
  }

  synchronized boolean allowed(String client) {
    Bucket b = buckets.get(key(client));
    return b == null || refill(b) >= 1;
  }

  synchronized void failed(String client) {
    Bucket b = buckets.computeIfAbsent(key(client), k -> {
      Bucket n = new Bucket();
      n.tokens = burst;
      n.at = nanoClock.getAsLong();
      return n;
    });
    b.tokens = Math.max(0, refill(b) - 1);
  }

  /** Seconds until {@code client} may try again; 0 when it may now. */
  synchronized long retryAfterSeconds(String client) {
    Bucket b = buckets.get(key(client));
    if (b == null) {
      return 0;
    }
    double missing = 1 - refill(b);
    return missing <= 0 ? 0 : (long) Math.ceil(missing * refillNanos / 1e9);
  }

  private double refill(Bucket b) {
    long now = nanoClock.getAsLong();
    b.tokens = Math.min(burst, b.tokens + (double) (now - b.at) / refillNanos);
    b.at = now;
    return b.tokens;
  }

  /** The address itself for IPv4, its /64 for IPv6; anything unparsable as given. */
  static String key(String client) {
    if (client == null || client.indexOf(':') < 0) {
      return String.valueOf(client);
    }
    try {
      String literal = client.startsWith("[") ? client.substring(1, client.indexOf(']')) : client;
      byte[] a = InetAddress.getByName(literal).getAddress(); // a literal: no name lookup
      if (a.length != 16) {
        return InetAddress.getByAddress(a).getHostAddress();
      }
      return Arrays.toString(Arrays.copyOf(a, 8)) + "/64";
    } catch (UnknownHostException | RuntimeException e) {
      return client;
    }
  }
}
