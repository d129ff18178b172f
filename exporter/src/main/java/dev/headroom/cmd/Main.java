package dev.headroom.cmd;

import dev.headroom.config.Config;
import dev.headroom.config.ConfigException;
import dev.headroom.config.ConfigParser;
import dev.headroom.serve.web.WebConfig;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Entry point: {@code headroom [serve|check|profile|size] [flags]}; {@code serve} is the default. One picocli
 * command line for all of them ({@link CommandLines}): {@code headroom size --help} and {@code headroom serve
 * --help} print that command's flags, a mistyped flag or command is named with the nearest known one.
 *
 * <p>Usage: {@code java -jar headroom.jar check --tunnel.interface=wt0}
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    // UTF-8 whatever the locale: without LANG (systemd's default) the JVM would encode as ASCII and print
    // '?' for every other character. Set before anything logs, so the log (stderr) is UTF-8 too.
    System.setOut(utf8(FileDescriptor.out));
    System.setErr(utf8(FileDescriptor.err));
    int code = run(args, System.out, System.err);
    if (code >= 0) {
      System.exit(code);
    }
  }

  /** A stream on {@code fd} that encodes as UTF-8 and flushes on every line, as System.out and System.err do. */
  static PrintStream utf8(FileDescriptor fd) {
    return new PrintStream(new FileOutputStream(fd), true, StandardCharsets.UTF_8);
  }

  /**
   * A parsed command line: the command to run and its settings given as flags, or {@code name} null when the
   * parse already answered (help, version, a bad flag, {@code size}) with exit code {@code exit}.
   */
  public record Command(String name, Map<String, String> flags, int exit) {
    /** A command line that was answered while parsing. */
    public static Command exit(int code) {
      return new Command(null, Map.of(), code);
    }
  }

  /** Runs a command; returns its exit code (serve: once stopped by a signal), or -1 when the JVM is already exiting. */
  static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    Command parsed = CommandLines.parse(args, out, err);
    if (parsed.name() == null) {
      return parsed.exit();
    }
    String command = parsed.name();
    Map<String, String> flags = parsed.flags();
    Config config;
    try {
      config = ConfigParser.load(flags);
    } catch (ConfigException e) {
      err.println("headroom: " + e.getMessage());
      return 2;
    }
    if (command.equals("check")) {
      return CheckCommand.run(config, out, err);
    }
    if (command.equals("profile")) {
      java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
      Thread main = Thread.currentThread();
      Thread hook = new Thread(() -> {
        stop.set(true); // Ctrl-C: finish the loop, write what was measured, then let the JVM exit
        try {
          main.join(5000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "headroom-profile-stop");
      Runtime.getRuntime().addShutdownHook(hook);
      int code = ProfileCommand.run(config, out, err, stop);
      if (stop.get()) {
        return -1; // the JVM is already exiting; System.exit here would wait on our own hook
      }
      Runtime.getRuntime().removeShutdownHook(hook);
      return code;
    }
    ServeProcess.trapSignals();
    WebConfig web;
    ServeCommand.Running running;
    try {
      web = ServeCommand.webConfig(config);
      running = ServeCommand.start(config, web);
    } catch (dev.headroom.serve.web.WebConfigException e) {
      err.println("headroom: web config: " + e.getMessage());
      return 2;
    } catch (RuntimeException e) {
      err.println("headroom: cannot serve on " + config.listenHost() + ":" + config.listenPort() + ": " + rootMessage(e));
      return 1;
    }
    return ServeProcess.run(flags, config, web, running);
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
