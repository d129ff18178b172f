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

  /** The command line: the daemon's settings at the top (for the default {@code serve}) and on each command. */
  static CommandLine commandLine() {
    CommandSpec top = ConfigParser.withSettings(Flags.command("headroom",
        "Per-direction headroom of a WireGuard routing peer, for Prometheus. Without a command: serve."));
    CommandLine.IVersionProvider version = () -> new String[] {"headroom " + Version.get()}; // read only if asked
    top.versionProvider(version);
    CommandLine cl = Flags.commandLine(top, true);
    cl.addSubcommand("serve", Flags.commandLine(ConfigParser.withSettings(Flags.command("serve",
        "Sample every --sample.interval and serve the metrics, the live page and the status API.")), true));
    cl.addSubcommand("check", Flags.commandLine(ConfigParser.withSettings(Flags.command("check",
        "Sample for --check.duration, print the reading in words; exit 1 without a tunnel interface.")), true));
    cl.addSubcommand("profile", Flags.commandLine(ConfigParser.withSettings(Flags.command("profile",
        "Measure this peer's ceiling while iperf3 drives load; write it to --profile.file.")), true));
    cl.addSubcommand("size", Flags.commandLine(SizeCommand.spec(), false));
    cl.addSubcommand("help", new CommandLine.HelpCommand());
    for (CommandLine sub : cl.getSubcommands().values()) {
      sub.getCommandSpec().versionProvider(version);
    }
    return cl;
  }

  /** Runs a command; returns its exit code (serve: once stopped by a signal), or -1 when the JVM is already exiting. */
  static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    CommandLine cl = commandLine();
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
    Integer helped = CommandLine.executeHelpRequest(top); // --help, --version, `headroom help size`
    if (helped != null) {
      helpOut.flush();
      return helped;
    }
    ParseResult leaf = top.hasSubcommand() ? top.subcommand() : top;
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
