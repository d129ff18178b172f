package dev.headroom.cmd;

import dev.headroom.config.Config;
import dev.headroom.config.ConfigException;
import dev.headroom.config.ConfigParser;
import dev.headroom.serve.web.WebConfig;
import dev.headroom.config.Flags;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Entry point: {@code headroom [serve|check|profile|size] [flags]}; {@code serve} is the default. One picocli
 * command line for all of them: {@code headroom size --help} and {@code headroom serve --help} print that
 * command's flags, a mistyped flag or command is named with the nearest known one.
 *
 * <p>Usage: {@code java -jar headroom.jar check --tunnel.interface=wt0}
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    int code = run(args, System.out, System.err);
    if (code >= 0) {
      System.exit(code);
    }
  }

  /** Every command, with the line the top-level help lists it by; the order is the help's. */
  private static final Map<String, String> COMMANDS = new LinkedHashMap<>();

  static {
    COMMANDS.put("serve", "Sample every --sample.interval and serve the metrics, the live page and the status API.");
    COMMANDS.put("check", "Sample for --check.duration, print the reading in words; exit 1 without a tunnel interface.");
    COMMANDS.put("profile", "Measure this peer's ceiling while iperf3 drives load; write it to --profile.file.");
    COMMANDS.put("size", "How many routing peers and Networks carry the peak (see headroom size --help).");
    COMMANDS.put("help", "Print a command's flags: headroom help size.");
  }

  /**
   * The command line for these arguments. Every command is known by name (for "did you mean" and the list in
   * {@code --help}), but only the one that runs, or whose help is asked for, gets its flags: a start builds one
   * set of options, not five (picocli's classes are Java 5 bytecode, which the class-data archive cannot hold, so
   * what they allocate at start is paid in memory for the process's life).
   */
  static CommandLine commandLine(String[] args) {
    String named = args.length > 0 && COMMANDS.containsKey(args[0]) ? args[0] : null;
    String full = named;
    if ("help".equals(named)) {
      full = args.length > 1 && COMMANDS.containsKey(args[1]) ? args[1] : null;
    }
    CommandSpec top = Flags.command("headroom",
        "Per-direction headroom of a WireGuard routing peer, for Prometheus. Without a command: serve.");
    if (full == null) {
      ConfigParser.withSettings(top); // the flags of the default command, serve
    }
    CommandLine.IVersionProvider version = () -> new String[] {"headroom " + Version.get()}; // read only if asked
    top.versionProvider(version);
    CommandLine cl = Flags.commandLine(top, true);
    for (Map.Entry<String, String> c : COMMANDS.entrySet()) {
      String name = c.getKey();
      CommandSpec spec;
      if (!name.equals(full)) {
        spec = CommandSpec.create().name(name);
        spec.usageMessage().description(c.getValue());
      } else if (name.equals("size")) {
        spec = SizeCommand.spec();
      } else {
        spec = ConfigParser.withSettings(Flags.command(name, c.getValue()));
      }
      if (name.equals("help")) {
        spec.addPositional(PositionalParamSpec.builder().paramLabel("COMMAND").arity("0..1").type(String.class)
            .build());
      }
      spec.versionProvider(version);
      cl.addSubcommand(name, Flags.commandLine(spec, !name.equals("size")));
    }
    return cl;
  }

  /** Runs a command; returns its exit code (serve: once stopped by a signal), or -1 when the JVM is already exiting. */
  static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    CommandLine cl = commandLine(args);
    PrintWriter helpOut = new PrintWriter(out, true);
    cl.setOut(helpOut);
    ParseResult top;
    try {
      top = cl.parseArgs(args);
    } catch (ParameterException e) {
      CommandLine at = e.getCommandLine();
      String who = at.getCommandSpec().qualifiedName();
      err.println(who + ": " + Flags.message(e));
      if (at.getCommandName().equals("size")) {
        at.usage(err);
      } else {
        err.println("see '" + who + " --help'");
      }
      return 2;
    }
    Integer helped = CommandLine.executeHelpRequest(top); // --help, --version
    if (helped != null) {
      helpOut.flush();
      return helped;
    }
    ParseResult leaf = top.hasSubcommand() ? top.subcommand() : top;
    if (leaf != top && leaf.commandSpec().name().equals("help")) {
      String of = leaf.matchedPositionals().isEmpty() ? null : leaf.matchedPositionals().get(0).getValue();
      if (of != null && !COMMANDS.containsKey(of)) {
        err.println("headroom help: unknown command '" + of + "' (commands: " + String.join(", ", COMMANDS.keySet())
            + ")");
        return 2;
      }
      (of == null ? cl : cl.getSubcommands().get(of)).usage(out);
      return 0;
    }
    String command = leaf == top ? "serve" : leaf.commandSpec().name();
    if (command.equals("size")) {
      return SizeCommand.run(leaf, out, err);
    }
    // Flags before the command word and after it both count; those after it win.
    Map<String, String> flags = new LinkedHashMap<>(ConfigParser.flags(top));
    if (leaf != top) {
      flags.putAll(ConfigParser.flags(leaf));
    }
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
