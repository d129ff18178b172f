package dev.headroom.serve.web;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.serve.web.Refusals.Reason;
import io.javalin.Javalin;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every refusal path of a real server moves its own reason's counter by exactly the number of refusals,
 * and no other reason's.
 */
class RefusalsTest {
  /** As {@link WebSecurityTest#LIMITS}: 2 requests per client, 64 connections, an 8 s request deadline. */
  static final WebSecurity.Limits LIMITS = WebSecurityTest.LIMITS;
  /** A cap of 8 connections and a deadline far beyond the test, so only the cap closes connections. */
  static final WebSecurity.Limits FEW_CONNECTIONS =
      new WebSecurity.Limits(Duration.ofSeconds(60), Duration.ofSeconds(60), 8 * 1024, 64 * 1024, 6, 128, 8, 64, 2,
          Duration.ofMinutes(1));
  static final Duration BOUND = Duration.ofSeconds(WebSecurityTest.BOUND_SECONDS);

  @TempDir static Path dir;
  static TestPki pki;
  final Refusals refusals = new Refusals();
  final CountDownLatch entered = new CountDownLatch(2);
  final CountDownLatch release = new CountDownLatch(1);
  Javalin app;

  @BeforeAll
  static void pki() throws Exception {
    pki = new TestPki(dir);
  }

  @AfterEach
  void stop() {
    release.countDown();
    if (app != null) {
      app.stop();
    }
  }

  private int start(WebConfig web, WebSecurity.Limits limits) {
    app = Javalin.create(c -> {
      c.jetty.host = "127.0.0.1";
      c.jetty.port = 0;
      WebSecurity.apply(c, web, limits, refusals);
      c.routes.get("/metrics", ctx -> ctx.result("headroom_build_info 1\n"));
      c.routes.get("/slow", ctx -> {
        entered.countDown();
        release.await(WebSecurityTest.BOUND_SECONDS, TimeUnit.SECONDS);
        ctx.result("slow\n");
      });
    }).start();
    return app.port();
  }

  /** Every reason's count: those in {@code expected} as given, every other 0. */
  private void assertCounts(Map<Reason, Long> expected) {
    Map<Reason, Long> want = new EnumMap<>(Reason.class);
    Map<Reason, Long> got = new EnumMap<>(Reason.class);
    for (Reason r : Reason.values()) {
      want.put(r, expected.getOrDefault(r, 0L));
      got.put(r, refusals.total(r));
    }
    assertEquals(want, got);
  }

  private static HttpResponse<String> get(HttpClient c, String url, String... headers) throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url)).timeout(BOUND);
    if (headers.length > 0) {
      r.headers(headers);
    }
    return c.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The status line's code of the answer to {@code request} sent raw on a new connection. */
  private static int raw(int port, String request) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout((int) BOUND.toMillis());
      s.getOutputStream().write(request.getBytes(UTF_8));
      String head = new String(s.getInputStream().readNBytes(12), UTF_8);
      return Integer.parseInt(head.substring(9, 12));
    }
  }

  private static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(UTF_8));
  }

  @Test
  void requestsPastTheClientCapCountAsClientLimit() throws Exception {
    int port = start(WebConfig.NONE, LIMITS);
    HttpClient c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      held.add(c.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/slow")).timeout(BOUND)
          .build(), HttpResponse.BodyHandlers.ofString()));
    }
    assertTrue(entered.await(BOUND.toSeconds(), TimeUnit.SECONDS), "both slow requests are in flight");
    for (int i = 0; i < 3; i++) {
      assertEquals(503, get(c, "http://127.0.0.1:" + port + "/metrics").statusCode());
    }
    release.countDown();
    for (var h : held) {
      assertEquals(200, h.get(BOUND.toSeconds(), TimeUnit.SECONDS).statusCode());
    }
    assertCounts(Map.of(Reason.CLIENT_LIMIT, 3L));
  }

  @Test
  void connectionsPastTheCapCountAsConnectionLimit() throws Exception {
    int port = start(WebConfig.NONE, FEW_CONNECTIONS);
    List<Socket> open = new ArrayList<>();
    try {
      for (int i = 0; i < 8 + 3; i++) {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port));
        s.setSoTimeout((int) BOUND.toMillis());
        open.add(s);
      }
      // The first 8 are accepted first (the kernel's accept queue is in order); the 3 after them are closed.
      for (Socket s : open.subList(8, 11)) {
        assertEquals(-1, readOrReset(s.getInputStream()), "closed by the server");
      }
      await().atMost(BOUND).until(() -> refusals.total(Reason.CONNECTION_LIMIT) == 3);
      assertCounts(Map.of(Reason.CONNECTION_LIMIT, 3L));
    } finally {
      for (Socket s : open) {
        s.close();
      }
    }
  }

  private static int readOrReset(InputStream in) {
    try {
      return in.read();
    } catch (IOException e) {
      return -1;
    }
  }

  @Test
  void connectionsWithoutARequestHeadCountAsRequestDeadline() throws Exception {
    int port = start(WebConfig.NONE, LIMITS);
    List<Socket> silent = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port));
        s.setSoTimeout((int) BOUND.toMillis());
        silent.add(s);
      }
      Socket trickle = new Socket("127.0.0.1", port);
      silent.add(trickle);
      trickle.setSoTimeout((int) BOUND.toMillis());
      trickle.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(UTF_8));
      for (Socket s : silent.subList(0, 3)) {
        assertEquals(-1, readOrReset(s.getInputStream()), "closed by the server");
      }
      // Jetty answers the half-read request as it closes the connection (an error page, not counted again).
      trickle.getInputStream().readAllBytes();
      await().atMost(BOUND).until(() -> refusals.total(Reason.REQUEST_DEADLINE) == 4);
      assertEquals(200, get(HttpClient.newHttpClient(), "http://127.0.0.1:" + port + "/metrics").statusCode());
      assertCounts(Map.of(Reason.REQUEST_DEADLINE, 4L));
    } finally {
      for (Socket s : silent) {
        s.close();
      }
    }
  }

  @Test
  void authRefusalsCountByKindAndAGoodPasswordNever() throws Exception {
    int port = start(new WebConfig(Optional.empty(), Map.of("prometheus", WebSecurityTest.SECRET_HASH)), LIMITS);
    HttpClient c = HttpClient.newHttpClient();
    String url = "http://127.0.0.1:" + port + "/metrics";
    String good = basic("prometheus", "secret");
    assertEquals(200, get(c, url, "Authorization", good).statusCode());
    for (int i = 0; i < 2; i++) {
      assertEquals(401, get(c, url).statusCode());
    }
    for (int i = 0; i < 5; i++) { // the failure burst (BasicAuth.Settings.DEFAULT)
      assertEquals(401, get(c, url, "Authorization", basic("prometheus", "wrong" + i)).statusCode());
    }
    for (int i = 0; i < 2; i++) {
      assertEquals(429, get(c, url, "Authorization", basic("prometheus", "wrong")).statusCode());
    }
    assertEquals(200, get(c, url, "Authorization", good).statusCode(), "a remembered password still passes");
    // The method check comes before authentication: one refusal, not two.
    assertEquals(405, c.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.noBody())
        .build(), HttpResponse.BodyHandlers.ofString()).statusCode());
    assertCounts(Map.of(Reason.AUTH_MISSING, 2L, Reason.AUTH_FAILED, 5L, Reason.AUTH_RATE_LIMITED, 2L,
        Reason.METHOD_NOT_ALLOWED, 1L));
  }

  @Test
  void otherMethodsMalformedAndOversizedRequestsCountByKind() throws Exception {
    int port = start(WebConfig.NONE, LIMITS);
    HttpClient c = HttpClient.newHttpClient();
    for (String method : new String[] {"POST", "PUT", "DELETE"}) {
      assertEquals(405, c.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
          .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
    }
    assertEquals(400, raw(port, "GARBAGE\r\n\r\n"));
    assertEquals(431, raw(port, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + "x".repeat(16 * 1024) + "\r\n\r\n"));
    assertEquals(414, raw(port, "GET /" + "x".repeat(16 * 1024) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    assertEquals(404, raw(port, "GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"), "not a refusal");
    assertCounts(Map.of(Reason.METHOD_NOT_ALLOWED, 3L, Reason.BAD_REQUEST, 1L, Reason.TOO_LARGE, 2L));
  }

  private static WebConfig tls() {
    return new WebConfig(Optional.of(new WebConfig.Tls(pki.file("server.crt"), pki.file("server.key"),
        WebConfig.ClientAuth.NoClientCert, Optional.empty(), WebConfig.TlsVersion.TLS12, Optional.empty())), Map.of());
  }

  @Test
  void aSilentTlsConnectionCountsOnceAsRequestDeadline() throws Exception {
    int port = start(tls(), LIMITS);
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout((int) BOUND.toMillis());
      assertEquals(-1, readOrReset(s.getInputStream()), "closed by the server");
    }
    await().atMost(BOUND).until(() -> refusals.total(Reason.REQUEST_DEADLINE) == 1);
    HttpClient tls = HttpClient.newBuilder().sslContext(pki.clientContext(null)).build();
    assertEquals(200, get(tls, "https://127.0.0.1:" + port + "/metrics").statusCode());
    assertCounts(Map.of(Reason.REQUEST_DEADLINE, 1L));
  }

  @Test
  void failedTlsHandshakesCountAsTlsHandshake() throws Exception {
    int port = start(tls(), LIMITS);
    for (int i = 0; i < 2; i++) {
      try (Socket s = new Socket("127.0.0.1", port)) {
        s.setSoTimeout((int) BOUND.toMillis());
        s.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(UTF_8));
        readOrReset(s.getInputStream());
      }
    }
    HttpClient tls = HttpClient.newBuilder().sslContext(pki.clientContext(null)).build();
    assertEquals(200, get(tls, "https://127.0.0.1:" + port + "/metrics").statusCode());
    await().atMost(BOUND).until(() -> refusals.total(Reason.TLS_HANDSHAKE) == 2);
    assertCounts(Map.of(Reason.TLS_HANDSHAKE, 2L));
  }
}
