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
 * included) within {@code deadlineMillis}; afterwards, a connection that received bytes during a whole
 * period without completing another request head is closed too. Idle keep-alive connections are left to
 * the idle timeout. Jetty parses without holding a thread, so the point is to free sockets and memory.
 *
 * <p>Usage: {@code connector.addBean(new RequestDeadline(connector.getScheduler(), 10_000, refusals))}.
 */
final class RequestDeadline implements Connection.Listener {
  private final Scheduler scheduler;
  private final long deadlineMillis;
  private final Refusals refusals;
  private final Map<Connection, Scheduler.Task> tasks = new ConcurrentHashMap<>();

  RequestDeadline(Scheduler scheduler, long deadlineMillis, Refusals refusals) {
    this.scheduler = scheduler;
    this.deadlineMillis = deadlineMillis;
    this.refusals = refusals;
  }

  @Override
  public void onOpened(Connection connection) {
    if (connection instanceof SslConnection) {
      return; // the HTTP connection it wraps is watched; its first deadline covers the handshake
    }
    schedule(connection, 0, 0, true);
  }

  @Override
  public void onClosed(Connection connection) {
    Scheduler.Task task = tasks.remove(connection);
    if (task != null) {
      task.cancel();
    }
  }

  private void schedule(Connection c, long messages, long bytes, boolean first) {
    tasks.put(c, scheduler.schedule(() -> check(c, messages, bytes, first), deadlineMillis, TimeUnit.MILLISECONDS));
  }

  private void check(Connection c, long messages, long bytes, boolean first) {
    if (!tasks.containsKey(c) || !c.getEndPoint().isOpen()) {
      tasks.remove(c);
      return;
    }
    long m = c.getMessagesIn();
    long b = c.getBytesIn();
    if (m == messages && (first || b > bytes)) {
      tasks.remove(c);
      refusals.count(Refusals.Reason.REQUEST_DEADLINE);
      c.close();
      return;
    }
    schedule(c, m, b, false);
  }
}
