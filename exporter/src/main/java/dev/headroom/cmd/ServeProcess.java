package dev.headroom.cmd;

import dev.headroom.config.Config;
import dev.headroom.config.ConfigException;
import dev.headroom.config.ConfigParser;
import dev.headroom.serve.web.WebConfig;
import dev.headroom.serve.web.WebConfigException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * {@code headroom serve} as a process under a supervisor: SIGTERM and SIGINT stop it cleanly with exit
 * status 0; SIGHUP re-reads the command line's configuration (flags and {@code --config.file}) and the web
 * config file, as Prometheus and its exporters do.
 *
 * <p>Usage: {@code ServeProcess.trapSignals(); ... return ServeProcess.run(flags, config, web, running);}
 *
 * <p>Why exit 0 on SIGTERM: the JVM's own handler runs the shutdown hooks and exits 128+15, which systemd,
 * Docker and runit record as a failure after every ordinary stop. Handling the signal here ends the same
 * way as a normal return, so no unit needs {@code SuccessExitStatus=143} and no supervisor misreads it.
 *
 * <p>A reload checks the whole new configuration (flags, config file, web config and its certificate and
 * key files) before touching anything; if any of it is invalid the running daemon keeps its configuration
 * and the log says why. A valid one replaces the daemon and the server, like a restart without the process
 * exit: sampling starts again (peaks and the page's history too). The old server answers until the new
 * sampler is up; the listen port is closed only between the old server stopping and the new one binding. Should
 * the new one fail to start (its port taken, say), the old configuration is started again.
 */
final class ServeProcess {
  private static final Logger log = LoggerFactory.getLogger(ServeProcess.class);

  private enum Event { STOP, RELOAD }

  /** Filled by the signal handlers, from {@link #trapSignals()} on. */
  private static final BlockingQueue<Event> EVENTS = new LinkedBlockingQueue<>();

  private final List<String> flags;
  private Config config;
  private WebConfig web;
  private ServeCommand.Running running;

  private ServeProcess(List<String> flags, Config config, WebConfig web, ServeCommand.Running running) {
    this.flags = flags;
    this.config = config;
    this.web = web;
    this.running = running;
  }

  /**
   * Takes over SIGTERM, SIGINT and SIGHUP; call it before starting anything, so a signal that arrives
   * while the daemon starts is acted on once it runs rather than ending the JVM.
   */
  static void trapSignals() {
    Signal.handle(new Signal("TERM"), s -> EVENTS.add(Event.STOP));
    Signal.handle(new Signal("INT"), s -> EVENTS.add(Event.STOP));
    Signal.handle(new Signal("HUP"), s -> EVENTS.add(Event.RELOAD));
  }

  /**
   * Serves until SIGTERM or SIGINT, reloading on SIGHUP; returns the exit status.
   *
   * @param flags the setting flags as given, parsed again over the re-read config file on each reload
   */
  static int run(List<String> flags, Config config, WebConfig web, ServeCommand.Running running)
      throws InterruptedException {
    ServeProcess p = new ServeProcess(flags, config, web, running);
    // Anything else that ends the JVM (System.exit from a library, an OOM exit) still closes the server.
    Thread hook = new Thread(p::close, "headroom-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    while (EVENTS.take() == Event.RELOAD) {
      p.reload();
    }
    log.info("stopping on a signal");
    p.close();
    return 0;
  }

  private void reload() {
    Config next;
    WebConfig nextWeb;
    try {
      next = ConfigParser.parse(flags.toArray(String[]::new)).config();
      nextWeb = ServeCommand.webConfig(next);
    } catch (ConfigException | WebConfigException e) {
      log.error("reload refused, the running configuration stays: {}", e.getMessage());
      return;
    }
    synchronized (this) {
      ServeCommand.Running old = running;
      try {
        running = ServeCommand.start(next, nextWeb, () -> old.server().close(), System::nanoTime);
        old.daemon().close();
        config = next;
        web = nextWeb;
        log.info("reloaded the configuration");
      } catch (RuntimeException e) {
        log.error("reload failed to start ({}); starting the previous configuration again", e.getMessage());
        old.close();
        running = ServeCommand.start(config, web, () -> {}, System::nanoTime);
      }
    }
  }

  private synchronized void close() {
    if (running != null) {
      running.close();
      running = null;
    }
  }
}
