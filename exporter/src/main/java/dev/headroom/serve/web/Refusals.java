package dev.headroom.serve.web;

import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * Counts the requests and connections the web layer refuses, one counter per {@link Reason}; exposed as
 * {@code headroom_http_requests_refused_total{reason}}. Counting is a {@link LongAdder} increment, cheap
 * enough for the refusal paths that exist to stay cheap under a flood.
 *
 * <p>Usage: {@code Refusals r = new Refusals(); WebSecurity.apply(config, web, limits, r); r.count(Reason.CLIENT_LIMIT);}
 */
public final class Refusals {
  /** Why a request or connection got no ordinary answer; {@link #label} is the metric's {@code reason}. */
  public enum Reason {
    /** 503: the client address already had its cap of requests in flight. */
    CLIENT_LIMIT,
    /** Closed at accept: the server had its cap of open connections. */
    CONNECTION_LIMIT,
    /** Closed: no complete request head (and TLS handshake) within the request deadline. */
    REQUEST_DEADLINE,
    /** Closed: the TLS handshake failed (plain HTTP on the HTTPS port, a refused client certificate...). */
    TLS_HANDSHAKE,
    /** 401: basic auth configured and the request carried no credentials. */
    AUTH_MISSING,
    /** 401: credentials that match no configured user and password. */
    AUTH_FAILED,
    /** 429: the client address failed too often; refused before any password hash. */
    AUTH_RATE_LIMITED,
    /** 503: every password-hash slot was taken, or this address already had a check running. */
    AUTH_BUSY,
    /** 405: a method other than GET and HEAD. */
    METHOD_NOT_ALLOWED,
    /** 400 from the HTTP parser: a malformed request. */
    BAD_REQUEST,
    /** 413, 414 or 431 from the HTTP parser: a request body, URI or header over the limit. */
    TOO_LARGE;

    private final String label = name().toLowerCase(Locale.ROOT);

    public String label() {
      return label;
    }
  }

  private final LongAdder[] counts =
      Stream.generate(LongAdder::new).limit(Reason.values().length).toArray(LongAdder[]::new);

  public void count(Reason reason) {
    counts[reason.ordinal()].increment();
  }

  /** Refusals for {@code reason} since start. */
  public long total(Reason reason) {
    return counts[reason.ordinal()].sum();
  }

  /** The reason a status Jetty answers by itself stands for, or null for one that is not a refusal. */
  static Reason ofJettyError(int status) {
    return switch (status) {
      case 400 -> Reason.BAD_REQUEST;
      case 413, 414, 431 -> Reason.TOO_LARGE;
      case 405 -> Reason.METHOD_NOT_ALLOWED;
      default -> null;
    };
  }
}
