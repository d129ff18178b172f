package dev.headroom.serve.web;

import dev.headroom.serve.RateLimitedLog;
import io.javalin.config.JavalinConfig;
import java.time.Duration;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.BlockingArrayQueue;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.LoggerFactory;

/**
 * Sizes Jetty for a scrape target so that a scrape is always answered: a few threads, a task queue that can
 * hold one request from every connection the server accepts (so Jetty never rejects a task and answers
 * with an empty reply), a connection cap past which new connections are closed as soon as they are
 * accepted, a backlog that absorbs a burst of connects, and the idle and request-head timeouts.
 *
 * <p>Usage, from {@link WebSecurity#apply}: {@code ServerCapacity.apply(config, limits, refusals);} then, on
 * the connector it builds, {@code ServerCapacity.configure(connector, limits, refusals);}
 *
 * <p>Why the numbers agree: HTTP/1.1 without pipelining has at most one request in flight per connection,
 * and Jetty's selector queues one task per readable connection. A queue of at least
 * {@code maxConnections} tasks therefore cannot overflow; the threads only decide how fast the queue
 * drains. Connections past the cap are refused at once rather than left in the kernel's backlog, where a
 * fresh scraper would wait behind them. {@link ClientLimit} keeps one client from holding every thread.
 */
final class ServerCapacity {
  /**
   * Jetty pads its task queue to the CPU cache line. Unless told how many references fill a line, its
   * {@code MemoryUtils} asks the JVM through the platform MBean server, which registers every platform MXBean:
   * about 200 JMX classes and their metadata in a process that serves no JMX (docs/benchmarks.md, "Settings
   * that stay"). 16 is the answer for compressed references (any heap under 32 GiB) and 64-byte lines; a wrong
   * answer would only change padding.
   */
  private static final String REFERENCES_PER_CACHE_LINE = "org.eclipse.jetty.util.referencesPerCacheLine";

  private static final RateLimitedLog LOG =
      new RateLimitedLog(LoggerFactory.getLogger(ServerCapacity.class), Duration.ofMinutes(1), System::nanoTime);

  private ServerCapacity() {}

  /** The request pool and the per-client cap on {@code config}; refusals are counted in {@code refusals}. */
  static void apply(JavalinConfig config, WebSecurity.Limits limits, Refusals refusals) {
    config.jetty.threadPool = threadPool(limits);
    config.jetty.modifyServer(
        server -> server.setHandler(new ClientLimit(limits.maxRequestsPerClient(), refusals)));
  }

  /** The request pool: {@code maxThreads} threads (the selector takes one) and the bounded task queue. */
  private static QueuedThreadPool threadPool(WebSecurity.Limits limits) {
    if (System.getProperty(REFERENCES_PER_CACHE_LINE) == null) {
      System.setProperty(REFERENCES_PER_CACHE_LINE, "16"); // read once, when the queue's class first loads
    }
    QueuedThreadPool pool =
        new QueuedThreadPool(limits.maxThreads(), 2, 60_000, 0,
            new BlockingArrayQueue<>(Math.min(64, limits.queueCapacity()), 64, limits.queueCapacity()), null);
    pool.setName("headroom-http");
    return pool;
  }

  /**
   * Jetty's cap on open network connections, made to close a connection accepted past {@code max} before it
   * reads a byte rather than stop accepting: Jetty's way leaves the next connects in the kernel's backlog,
   * where a fresh scraper would wait behind a flood, and counts no refusal.
   */
  private static NetworkConnectionLimit connectionLimit(ServerConnector connector, int max, Refusals refusals) {
    return new NetworkConnectionLimit(max, connector) {
      @Override
      protected void limit() {} // keep accepting: onAccepting closes every connection past the cap

      @Override
      protected void unlimit() {}

      @Override
      public void onAccepting(SelectableChannel channel) {
        super.onAccepting(channel);
        if (!channel.isOpen()) {
          refusals.count(Refusals.Reason.CONNECTION_LIMIT);
          LOG.warn("connections", "refused a connection from "
              + ((SocketChannel) channel).socket().getRemoteSocketAddress() + ": " + max + " connections are open", null);
        }
      }
    };
  }

  /**
   * Timeouts, backlog, request-head deadline and the connection cap on {@code connector}; the connections
   * these close, and failed TLS handshakes, are counted in {@code refusals}.
   */
  static void configure(ServerConnector connector, WebSecurity.Limits limits, Refusals refusals) {
    connector.setIdleTimeout(limits.idleTimeout().toMillis());
    connector.setAcceptQueueSize(limits.acceptQueueSize());
    connector.addBean(new RequestDeadline(connector.getScheduler(), limits.requestDeadline().toMillis(), refusals));
    connector.addBean(connectionLimit(connector, limits.maxConnections(), refusals));
    // Jetty adds the connector's handshake listeners to every TLS connection it makes.
    connector.addBean(new SslHandshakeListener() {
      @Override
      public void handshakeFailed(Event event, Throwable failure) {
        refusals.count(Refusals.Reason.TLS_HANDSHAKE);
      }
    });
  }
}
