package dev.headroom.serve.web;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.function.LongSupplier;

/**
 * The basic auth before-handler: every request needs {@code Authorization: Basic} credentials matching a
 * bcrypt hash of {@code basic_auth_users}; otherwise 401 with {@code WWW-Authenticate}.
 *
 * <p>Usage: {@code config.routes.before(new BasicAuth(users, BasicAuth.Settings.DEFAULT, System::nanoTime, refusals, Bcrypt::verify))}.
 *
 * <p>bcrypt costs ~0.1 s of CPU at cost 10 and more at higher costs, so it must never be what a flood of
 * wrong passwords can spend freely, nor what makes scrapes wait:
 * <ul>
 *   <li>a success is remembered as a salted SHA-256 of the exact credentials (never the password),
 *       compared in constant time, for {@code cacheTtl} after its last use: a scraper that keeps scraping
 *       pays bcrypt once, so it is never queued behind a flood;
 *   <li>each client may fail {@code failureBurst} times, then once per {@code failureRefill}; past that it
 *       gets 429 before any hash runs ({@link FailureLimiter});
 *   <li>at most {@code concurrentHashes} bcrypt runs at once and at most {@code waitingHashes} requests wait
 *       for one, first come first served, each at most {@code hashWait}; others get 503 with
 *       {@code Retry-After} at once, so request threads are never all parked on the hash. One client has
 *       at most one request checking or waiting (more get 503 at once), so a flood from one address
 *       takes one slot and a new client waits behind at most one of its hashes;
 *   <li>an unknown user is checked against a dummy hash of the highest configured cost, so the answer
 *       takes as long as for the slowest real user and does not tell which names exist.
 * </ul>
 */
public final class BasicAuth implements Handler {
  static final String CHALLENGE = "Basic realm=\"headroom\", charset=\"UTF-8\"";

  /**
   * Bounds on what authentication may cost.
   *
   * @param cacheTtl how long a verified password is remembered after its last use; zero disables
   * @param concurrentHashes bcrypt runs at once
   * @param waitingHashes requests that may wait for a bcrypt slot
   * @param hashWait how long one waits
   * @param failureBurst failed attempts a client may make in a row
   * @param failureRefill one more attempt per this, once the burst is spent
   * @param maxClients clients whose failures are tracked
   */
  public record Settings(
      Duration cacheTtl,
      int concurrentHashes,
      int waitingHashes,
      Duration hashWait,
      int failureBurst,
      Duration failureRefill,
      int maxClients) {
    public static final Settings DEFAULT =
        new Settings(Duration.ofMinutes(5), 1, 2, Duration.ofSeconds(5), 5, Duration.ofSeconds(6), 4096);

    public Settings withCacheTtl(Duration ttl) {
      return new Settings(ttl, concurrentHashes, waitingHashes, hashWait, failureBurst, failureRefill, maxClients);
    }
  }

  /** What a request's credentials earned it. */
  enum Decision {
    ALLOWED,
    /** 401: wrong or missing credentials. */
    DENIED,
    /** 429: this client failed too often. */
    THROTTLED,
    /** 503: every bcrypt slot is taken. */
    BUSY
  }

  private static final class Remembered {
    final byte[] digest;
    volatile long expiresAt;

    Remembered(byte[] digest, long expiresAt) {
      this.digest = digest;
      this.expiresAt = expiresAt;
    }
  }

  private final Map<String, Bcrypt.Hash> users = new HashMap<>();
  private final Bcrypt.Hash dummy;
  private final Map<String, Remembered> cache = new ConcurrentHashMap<>();
  private final byte[] salt = new byte[32];
  private final Settings settings;
  private final LongSupplier nanoClock;
  private final Semaphore hashSlots;
  private final AtomicInteger waiting = new AtomicInteger();
  private final Set<String> hashing = ConcurrentHashMap.newKeySet();
  private final FailureLimiter failures;
  private final BiPredicate<byte[], Bcrypt.Hash> verifier;
  private final Refusals refusals;

  /**
   * @param users user name to bcrypt hash, as validated by {@link WebConfigParser}
   * @param nanoClock {@code System::nanoTime}, replaceable in tests
   * @param refusals where the requests it refuses are counted
   * @param verifier checks a password against its hash: {@link Bcrypt#verify} in service
   */
  public BasicAuth(Map<String, String> users, Settings settings, LongSupplier nanoClock, Refusals refusals,
      BiPredicate<byte[], Bcrypt.Hash> verifier) {
    this.refusals = refusals;
    this.verifier = verifier;
    users.forEach((u, h) -> this.users.put(u, Bcrypt.parse(h)));
    this.settings = settings;
    this.nanoClock = nanoClock;
    SecureRandom random = new SecureRandom();
    random.nextBytes(salt);
    int cost = this.users.values().stream().mapToInt(Bcrypt.Hash::cost).max().orElse(10);
    byte[] dummySalt = new byte[16];
    byte[] dummyDigest = new byte[23];
    random.nextBytes(dummySalt);
    random.nextBytes(dummyDigest); // matches no password
    this.dummy = new Bcrypt.Hash(cost, dummySalt, dummyDigest);
    this.hashSlots = new Semaphore(settings.concurrentHashes(), true);
    this.failures = new FailureLimiter(settings.failureBurst(), settings.failureRefill().toNanos(),
        settings.maxClients(), nanoClock);
  }

  @Override
  public void handle(Context ctx) {
    String client = ctx.ip();
    String authorization = ctx.header("Authorization");
    switch (check(authorization, client)) {
      case ALLOWED -> {
        return;
      }
      case DENIED -> {
        refusals.count(authorization == null ? Refusals.Reason.AUTH_MISSING : Refusals.Reason.AUTH_FAILED);
        ctx.header("WWW-Authenticate", CHALLENGE);
        ctx.status(401);
      }
      case THROTTLED -> {
        refusals.count(Refusals.Reason.AUTH_RATE_LIMITED);
        ctx.status(429).header("Retry-After", Long.toString(Math.max(1, failures.retryAfterSeconds(client))));
      }
      case BUSY -> {
        refusals.count(Refusals.Reason.AUTH_BUSY);
        ctx.status(503).header("Retry-After", "1");
      }
    }
    ctx.contentType("text/plain; charset=utf-8").result(
        switch (ctx.statusCode()) {
          case 401 -> "Unauthorized\n";
          case 429 -> "Too many failed logins from this address; retry later\n";
          default -> "Busy checking passwords; retry shortly\n";
        });
    ctx.skipRemainingHandlers();
  }

  /** Checks the Authorization header value of a request from {@code client} (its address). */
  Decision check(String header, String client) {
    if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
      return Decision.DENIED;
    }
    byte[] decoded;
    try {
      decoded = Base64.getDecoder().decode(header.substring(6).strip());
    } catch (IllegalArgumentException e) {
      return Decision.DENIED;
    }
    String credentials = new String(decoded, StandardCharsets.UTF_8);
    int colon = credentials.indexOf(':');
    if (colon < 0) {
      return Decision.DENIED;
    }
    String user = credentials.substring(0, colon);
    byte[] digest = digest(decoded);
    if (remembered(user, digest)) {
      return Decision.ALLOWED;
    }
    if (!failures.allowed(client)) {
      return Decision.THROTTLED;
    }
    String clientKey = FailureLimiter.key(client);
    if (!hashing.add(clientKey)) {
      return Decision.BUSY; // one check per client at a time: a flood takes one slot, never all of them
    }
    try {
      // Asked again as the client's one check: its previous check may have failed since the first ask,
      // and a failure is recorded before the next check is let in, so a flood hashes no more than allowed.
      if (!failures.allowed(client)) {
        return Decision.THROTTLED;
      }
      return verified(user, credentials.substring(colon + 1), digest, client);
    } finally {
      hashing.remove(clientKey);
    }
  }

  /** Runs bcrypt for the client's one check, waiting at most {@code hashWait} for a slot. */
  private Decision verified(String user, String password, byte[] digest, String client) {
    if (waiting.incrementAndGet() > settings.waitingHashes() + settings.concurrentHashes()) {
      waiting.decrementAndGet();
      return Decision.BUSY;
    }
    boolean ok;
    try {
      if (!hashSlots.tryAcquire(settings.hashWait().toNanos(), TimeUnit.NANOSECONDS)) {
        return Decision.BUSY;
      }
      try {
        if (remembered(user, digest)) {
          return Decision.ALLOWED; // verified while this request waited for the slot
        }
        Bcrypt.Hash hash = users.get(user);
        ok = verifier.test(password.getBytes(StandardCharsets.UTF_8), hash != null ? hash : dummy) && hash != null;
      } finally {
        hashSlots.release();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Decision.BUSY;
    } finally {
      waiting.decrementAndGet();
    }
    if (!ok) {
      failures.failed(client);
      return Decision.DENIED;
    }
    if (!settings.cacheTtl().isZero()) {
      cache.put(user, new Remembered(digest, nanoClock.getAsLong() + settings.cacheTtl().toNanos()));
    }
    return Decision.ALLOWED;
  }

  /** True when these exact credentials were verified and used within the TTL; extends it. */
  private boolean remembered(String user, byte[] digest) {
    Remembered r = cache.get(user);
    long now = nanoClock.getAsLong();
    if (r != null && now - r.expiresAt < 0 && MessageDigest.isEqual(r.digest, digest)) {
      r.expiresAt = now + settings.cacheTtl().toNanos();
      return true;
    }
    return false;
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
