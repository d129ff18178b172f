package dev.headroom.serve.web;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Proxy;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.eclipse.jetty.util.thread.Scheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The request-head deadline decides on counters that the connection's own thread moves at two moments (bytes
 * on fill, requests once the head is parsed); its checks run by hand here, so each test places a check exactly
 * where it wants: inside a head being parsed, across a trickle, on an idle keep-alive connection.
 */
class RequestDeadlineTest {
  private static final long DEADLINE_MILLIS = 4_000;

  /** Records what the deadline schedules; {@link #runDue()} runs it, as the scheduler would when due. */
  static final class HandScheduler extends ScheduledExecutorScheduler {
    final List<Runnable> due = new ArrayList<>();
    final List<Long> delaysMillis = new ArrayList<>();

    @Override
    public synchronized Scheduler.Task schedule(Runnable task, long delay, TimeUnit unit) {
      due.add(task);
      delaysMillis.add(unit.toMillis(delay));
      return () -> due.remove(task);
    }

    void runDue() {
      List<Runnable> now;
      synchronized (this) {
        now = new ArrayList<>(due);
        due.clear();
      }
      now.forEach(Runnable::run);
    }
  }

  /** A connection whose counters the test sets; {@code closed} once the deadline closes it. */
  static final class Counted {
    final AtomicLong requests = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    final AtomicBoolean closed = new AtomicBoolean();
    final Connection connection;

    Counted() {
      EndPoint endPoint = (EndPoint) Proxy.newProxyInstance(EndPoint.class.getClassLoader(),
          new Class<?>[] {EndPoint.class}, (p, m, a) -> m.getName().equals("isOpen") ? !closed.get() : null);
      connection = (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
          new Class<?>[] {Connection.class}, (p, m, a) -> switch (m.getName()) {
            case "getMessagesIn" -> requests.get();
            case "getBytesIn" -> bytes.get();
            case "getEndPoint" -> endPoint;
            case "close" -> {
              closed.set(true);
              yield null;
            }
            case "hashCode" -> System.identityHashCode(p);
            case "equals" -> p == a[0];
            default -> null;
          });
    }

    /** A whole request head received and parsed. */
    void request(int headBytes) {
      bytes.addAndGet(headBytes);
      requests.incrementAndGet();
    }
  }

  private final HandScheduler scheduler = new HandScheduler();
  private final Refusals refusals = new Refusals();
  private final RequestDeadline deadline = new RequestDeadline(scheduler, DEADLINE_MILLIS, refusals);
  private Javalin app;

  @AfterEach
  void stop() {
    if (app != null) {
      app.stop();
    }
  }

  @Test
  void aHeadBeingParsedWhenACheckRunsIsNotCut() {
    Counted c = new Counted();
    deadline.onOpened(c.connection);
    c.request(80);
    scheduler.runDue();
    // The next scrape's head is filled but not yet parsed when the check reads the counters.
    c.bytes.addAndGet(80);
    scheduler.runDue();
    assertFalse(c.closed.get(), "a head caught between fill and parse was cut");
    assertEquals(0, refusals.total(Refusals.Reason.REQUEST_DEADLINE));
    c.requests.incrementAndGet(); // parsed an instant later
    scheduler.runDue();
    scheduler.runDue();
    assertFalse(c.closed.get());
  }

  @Test
  void aHeadStillUnfinishedAtTheNextCheckIsCutTrickleOrNot() {
    Counted trickle = new Counted();
    Counted stalled = new Counted();
    for (Counted c : List.of(trickle, stalled)) {
      deadline.onOpened(c.connection);
      c.request(80);
    }
    scheduler.runDue();
    trickle.bytes.addAndGet(20);
    stalled.bytes.addAndGet(20);
    scheduler.runDue();
    assertFalse(trickle.closed.get());
    assertFalse(stalled.closed.get());
    trickle.bytes.addAndGet(1); // one more byte, still no complete head
    scheduler.runDue();
    assertTrue(trickle.closed.get(), "a trickling head outlived a whole check period");
    assertTrue(stalled.closed.get(), "a head begun and left unfinished outlived a whole check period");
    assertEquals(2, refusals.total(Refusals.Reason.REQUEST_DEADLINE));
  }

  @Test
  void aNewConnectionMustCompleteItsFirstHeadWithinTheDeadline() {
    Counted silent = new Counted();
    Counted prompt = new Counted();
    deadline.onOpened(silent.connection);
    deadline.onOpened(prompt.connection);
    scheduler.runDue();
    prompt.request(80);
    assertFalse(silent.closed.get(), "closed at half the deadline");
    scheduler.runDue();
    assertTrue(silent.closed.get());
    assertFalse(prompt.closed.get());
    assertTrue(scheduler.delaysMillis.stream().allMatch(d -> d == DEADLINE_MILLIS / 2), scheduler.delaysMillis.toString());
  }

  @Test
  void anIdleKeepAliveConnectionIsLeftToTheIdleTimeout() {
    Counted c = new Counted();
    deadline.onOpened(c.connection);
    c.request(80);
    for (int i = 0; i < 10; i++) {
      scheduler.runDue();
    }
    assertFalse(c.closed.get());
    deadline.onClosed(c.connection);
    assertTrue(scheduler.due.isEmpty(), "a closed connection is no longer checked");
  }

  /**
   * The real server, its deadline checked by hand: a scrape whose head arrives in two writes with a check
   * between them is answered whole on its kept-alive connection.
   */
  @Test
  void aScrapeWhoseHeadSpansACheckIsAnsweredOnARealServer() throws Exception {
    WebSecurity.Limits limits = new WebSecurity.Limits(Duration.ofSeconds(60), Duration.ofMinutes(10), 8 * 1024,
        64 * 1024, 6, 128, 64, 64, 2, Duration.ofMinutes(1));
    app = Javalin.create(c -> {
      c.jetty.host = "127.0.0.1";
      c.jetty.port = 0;
      WebSecurity.apply(c, WebConfig.NONE, limits, new Refusals());
      c.routes.get("/metrics", ctx -> ctx.result("headroom_build_info 1\n"));
    }).start();
    ServerConnector connector = (ServerConnector) app.jettyServer().server().getConnectors()[0];
    connector.addEventListener(deadline);
    try (Socket s = new Socket("127.0.0.1", app.port())) {
      s.setSoTimeout(20_000);
      OutputStream out = s.getOutputStream();
      InputStream in = s.getInputStream();
      String head = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n";
      out.write((head + "\r\n").getBytes(UTF_8));
      assertTrue(readResponse(in).endsWith("headroom_build_info 1\n"));
      scheduler.runDue();

      out.write(head.getBytes(UTF_8));
      out.flush();
      long filled = 2L * head.length() + 2;
      await().atMost(Duration.ofSeconds(20)).until(() -> bytesIn(connector) >= filled);
      scheduler.runDue();
      out.write("\r\n".getBytes(UTF_8));
      String second = readResponse(in);
      assertTrue(second.startsWith("HTTP/1.1 200"), second);
      assertTrue(second.endsWith("headroom_build_info 1\n"), second);
      scheduler.runDue();
      assertEquals(1, connector.getConnectedEndPoints().size(), "the kept-alive connection is still open");
    }
  }

  private static long bytesIn(ServerConnector connector) {
    return connector.getConnectedEndPoints().stream().mapToLong(e -> e.getConnection().getBytesIn()).sum();
  }

  /** One HTTP/1.1 response with a Content-Length body; the connection stays open. */
  private static String readResponse(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(UTF_8).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed after " + head.size() + " bytes: " + head.toString(UTF_8));
      }
      head.write(b);
    }
    String h = head.toString(UTF_8);
    int length = h.lines().filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:"))
        .mapToInt(l -> Integer.parseInt(l.substring(15).trim())).findFirst().orElse(0);
    return h + new String(in.readNBytes(length), UTF_8);
  }
}
