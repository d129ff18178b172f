package dev.headroom.serve.web;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The basic auth before-handler: every request needs {@code Authorization: Basic} credentials matching a
 * bcrypt hash of {@code basic_auth_users}; otherwise 401 with {@code WWW-Authenticate}.
 *
 * <p>Usage: {@code config.routes.before(new BasicAuth(web.basicAuthUsers(), Duration.ofMinutes(1).toNanos(), System::nanoTime))}.
 *
 * <p>bcrypt costs ~0.1 s of CPU at cost 10 and Prometheus scrapes every few seconds, so a success is
 * remembered for {@code cacheNanos} as a salted SHA-256 of the exact credentials (never the password),
 * compared in constant time. Misses run bcrypt one at a time, so a flood of wrong passwords costs at most
 * one core; unknown users are checked against a dummy hash so response time does not reveal which
 * user names exist.
 */
public final class BasicAuth implements Handler {
  static final String CHALLENGE = "Basic realm=\"headroom\", charset=\"UTF-8\"";
  /** bcrypt of a random string, cost 10: the work an unknown user name costs. */
  private static final Bcrypt.Hash DUMMY =
      Bcrypt.parse("$2y$10$9eIWiAeiLv2WJaMXIgx0KuzRvbe5oyuHKhwJw1wuiNyt7M8AqvRDe");

  private record Remembered(byte[] digest, long expiresAt) {}

  private final Map<String, Bcrypt.Hash> users = new HashMap<>();
  private final Map<String, Remembered> cache = new ConcurrentHashMap<>();
  private final byte[] salt = new byte[32];
  private final long cacheNanos;
  private final LongSupplier nanoClock;
  private final ReentrantLock bcryptLock = new ReentrantLock(true);
  private final AtomicLong bcryptRuns = new AtomicLong();

  /**
   * @param users user name to bcrypt hash, as validated by {@link WebConfigParser}
   * @param cacheNanos how long a verified password is remembered; 0 disables the cache
   * @param nanoClock {@code System::nanoTime}, replaceable in tests
   */
  public BasicAuth(Map<String, String> users, long cacheNanos, LongSupplier nanoClock) {
    users.forEach((u, h) -> this.users.put(u, Bcrypt.parse(h)));
    this.cacheNanos = cacheNanos;
    this.nanoClock = nanoClock;
    new SecureRandom().nextBytes(salt);
  }

  @Override
  public void handle(Context ctx) {
    if (!authorized(ctx.header("Authorization"))) {
      ctx.header("WWW-Authenticate", CHALLENGE);
      ctx.status(401).result("Unauthorized\n");
      ctx.skipRemainingHandlers();
    }
  }

  /** True when the Authorization header value carries valid credentials. */
  boolean authorized(String header) {
    if (header == null || header.length() < 6 || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
      return false;
    }
    byte[] decoded;
    try {
      decoded = Base64.getDecoder().decode(header.substring(6).strip());
    } catch (IllegalArgumentException e) {
      return false;
    }
    String credentials = new String(decoded, StandardCharsets.UTF_8);
    int colon = credentials.indexOf(':');
    if (colon < 0) {
      return false;
    }
    String user = credentials.substring(0, colon);
    byte[] password = credentials.substring(colon + 1).getBytes(StandardCharsets.UTF_8);
    byte[] digest = digest(decoded);

    Remembered r = cache.get(user);
    long now = nanoClock.getAsLong();
    if (r != null && now - r.expiresAt() < 0 && MessageDigest.isEqual(r.digest(), digest)) {
      return true;
    }
    Bcrypt.Hash hash = users.get(user);
    boolean ok;
    bcryptLock.lock();
    try {
      bcryptRuns.incrementAndGet();
      ok = Bcrypt.verify(password, hash != null ? hash : DUMMY) && hash != null;
    } finally {
      bcryptLock.unlock();
    }
    if (ok && cacheNanos > 0) {
      cache.put(user, new Remembered(digest, nanoClock.getAsLong() + cacheNanos));
    }
    return ok;
  }

  /** How many bcrypt verifications ran; tests use it to prove the cache works. */
  long bcryptRuns() {
    return bcryptRuns.get();
  }

  private byte[] digest(byte[] credentials) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      md.update(salt);
      return md.digest(credentials);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JDK", e);
    }
  }
}
