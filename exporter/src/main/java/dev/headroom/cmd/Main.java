package dev.headroom.cmd;

import dev.headroom.config.Config;
import dev.headroom.config.ConfigException;
import dev.headroom.config.ConfigParser;
import dev.headroom.serve.web.WebConfig;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * Entry point: {@code headroom [serve|check|profile|size] [flags]}; {@code serve} is the default.
 *
 * <p>Usage: {@code java -jar headroom.jar check --tunnel.interface=wt0}
 */
public final class Main {
  private static final List<String> COMMANDS = List.of("serve", "check", "profile", "size");

  private Main() {}

  public static void main(String[] args) throws Exception {
    int code = run(args, System.out, System.err);
    if (code >= 0) {
      System.exit(code);
    }
  }

  /** Runs a command; returns its exit code (serve: once stopped by a signal), or -1 when the JVM is already exiting. */
  static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    String command = "serve";
    String[] rest = args;
    if (args.length > 0 && !args[0].startsWith("-")) {
      command = args[0];
      rest = Arrays.copyOfRange(args, 1, args.length);
    }
    if (Arrays.asList(rest).contains("--help") || Arrays.asList(rest).contains("-h") || command.equals("help")) {
      out.println("usage: headroom [" + String.join("|", COMMANDS) + "] [flags]\n\nflags:\n" + ConfigParser.help());
      return 0;
    }
    if (Arrays.asList(rest).contains("--version")) {
      out.println("headroom " + Version.get());
      return 0;
    }
    if (command.equals("size")) {
      return SizeCommand.run(rest, out, err);
    }
    if (!COMMANDS.contains(command)) {
      err.println("headroom: unknown command '" + command + "' (use one of " + String.join(", ", COMMANDS) + ")");
      return 2;
    }
    Config config;
    try {
      ConfigParser.Parsed parsed = ConfigParser.parse(rest);
      if (!parsed.positional().isEmpty()) {
        err.println("headroom: unexpected argument '" + parsed.positional().get(0) + "'");
        return 2;
      }
      config = parsed.config();
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
    return ServeProcess.run(rest, config, web, running);
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
