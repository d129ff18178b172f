package dev.headroom.serve.web;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Closes connections that trickle a request: the idle timeout alone never fires on a client sending one
 * byte every few seconds (slow loris). A new connection must complete its first request head (TLS handshake
 * included) within {@code deadlineMillis}; afterwards, a connection whose request head, once begun, is still
 * unfinished a whole check period later is closed. Idle keep-alive connections are left to the idle timeout.
 * Jetty parses without holding a thread, so the point is to free sockets and memory. Jetty has no such limit:
 * its idle timeout restarts on every byte, and its minimum data rates cover request content, not the head.
 *
 * <p>The check runs every half deadline on Jetty's scheduler, beside the connection's own thread, and reads
 * two counters that thread moves at different moments: bytes when it fills its buffer, requests when the head
 * it parses from them is complete. One check can therefore land inside a head that is being parsed that very
 * instant and see bytes without a request. Closing on that one sight cut ordinary scrapes: when the close fell
 * after Jetty had taken the request but before the handler ran, Jetty answered the scraper its 500 error page
 * and the handler then wrote the metrics into that committed response ({@code written N > 140
 * content-length}). So a connection is closed only when two checks in a row find the same head unfinished: a
 * head that completes within half the deadline is never cut, one that takes longer than the deadline always is.
 *
 * <p>Usage: {@code connector.addBean(new RequestDeadline(connector.getScheduler(), 10_000, refusals))}.
 */
final class RequestDeadline implements Connection.Listener {
  private final Scheduler scheduler;
  private final long periodMillis;
  private final Refusals refusals;
  private final Map<Connection, Scheduler.Task> tasks = new ConcurrentHashMap<>();

  RequestDeadline(Scheduler scheduler, long deadlineMillis, Refusals refusals) {
    this.scheduler = scheduler;
    this.periodMillis = Math.max(1, deadlineMillis / 2);
    this.refusals = refusals;
  }

  /**
   * What the last check saw: the connection's request and byte counts, and whether a request head was under
   * way then (bytes had come in since the check before without completing one).
   */
  private record Seen(long requests, long bytes, boolean inHead) {
    /** A new connection: its first check counts whatever it has received as a head begun. */
    static final Seen OPENED = new Seen(0, -1, false);
  }

  @Override
  public void onOpened(Connection connection) {
    if (connection instanceof SslConnection) {
      return; // the HTTP connection it wraps is watched; its first deadline covers the handshake
    }
    schedule(connection, Seen.OPENED);
  }

  @Override
  public void onClosed(Connection connection) {
    Scheduler.Task task = tasks.remove(connection);
    if (task != null) {
      task.cancel();
    }
  }

  private void schedule(Connection c, Seen seen) {
    tasks.put(c, scheduler.schedule(() -> check(c, seen), periodMillis, TimeUnit.MILLISECONDS));
  }

  private void check(Connection c, Seen last) {
    if (!tasks.containsKey(c) || !c.getEndPoint().isOpen()) {
      tasks.remove(c);
      return;
    }
    long requests = c.getMessagesIn();
    long bytes = c.getBytesIn();
    if (requests == last.requests() && last.inHead()) {
      tasks.remove(c);
      refusals.count(Refusals.Reason.REQUEST_DEADLINE);
      c.close(); // the head under way at the last check is still unfinished a whole period later
      return;
    }
    boolean inHead = requests == last.requests() && bytes > last.bytes();
    schedule(c, new Seen(requests, bytes, inHead));
  }
}
